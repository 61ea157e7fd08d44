package dev.vigil.core.json

/**
 * A small JSON reader and writer.
 *
 * The core must run on a plain JVM (tests, other hosts) and on Android, and Android's org.json is not on a
 * plain JVM; a dependency for ~200 lines of JSON would also land in every host app. Values map to Kotlin as
 * null, Boolean, Number (Long or Double), String, List<Any?> and Map<String, Any?>.
 */
internal object Json {
    fun parse(text: String): Any? = Reader(text).readDocument()

    @Suppress("UNCHECKED_CAST")
    fun parseObject(text: String): Map<String, Any?> =
        parse(text) as? Map<String, Any?> ?: throw JsonException("expected a JSON object")

    fun stringify(value: Any?): String = StringBuilder().also { write(it, value) }.toString()

    private fun write(out: StringBuilder, value: Any?) {
        when (value) {
            null -> out.append("null")
            is Boolean -> out.append(value)
            is Double -> if (value.isFinite()) out.append(value) else out.append("null")
            is Float -> if (value.isFinite()) out.append(value) else out.append("null")
            is Number -> out.append(value)
            is CharSequence -> writeString(out, value)
            is Map<*, *> -> {
                out.append('{')
                var first = true
                for ((k, v) in value) {
                    if (!first) out.append(',')
                    first = false
                    writeString(out, k.toString())
                    out.append(':')
                    write(out, v)
                }
                out.append('}')
            }
            is Iterable<*> -> {
                out.append('[')
                value.forEachIndexed { i, v ->
                    if (i > 0) out.append(',')
                    write(out, v)
                }
                out.append(']')
            }
            is Array<*> -> write(out, value.asList())
            is Enum<*> -> writeString(out, value.name.lowercase())
            else -> writeString(out, value.toString())
        }
    }

    private fun writeString(out: StringBuilder, s: CharSequence) {
        out.append('"')
        for (c in s) {
            when (c) {
                '"' -> out.append("\\\"")
                '\\' -> out.append("\\\\")
                '\n' -> out.append("\\n")
                '\r' -> out.append("\\r")
                '\t' -> out.append("\\t")
                '\b' -> out.append("\\b")
                '\u000C' -> out.append("\\f")
                else -> if (c < ' ' || c == '\u2028' || c == '\u2029') {
                    out.append("\\u").append(String.format("%04x", c.code))
                } else {
                    out.append(c)
                }
            }
        }
        out.append('"')
    }

    private class Reader(private val s: String) {
        private var i = 0

        fun readDocument(): Any? {
            val v = readValue(0)
            skipWhitespace()
            if (i != s.length) fail("trailing characters")
            return v
        }

        private fun readValue(depth: Int): Any? {
            if (depth > 64) fail("nesting too deep")
            skipWhitespace()
            if (i >= s.length) fail("unexpected end")
            return when (val c = s[i]) {
                '{' -> readObject(depth)
                '[' -> readArray(depth)
                '"' -> readString()
                't' -> literal("true", true)
                'f' -> literal("false", false)
                'n' -> literal("null", null)
                else -> if (c == '-' || c in '0'..'9') readNumber() else fail("unexpected '$c'")
            }
        }

        private fun readObject(depth: Int): Map<String, Any?> {
            i++
            val map = LinkedHashMap<String, Any?>()
            skipWhitespace()
            if (peek() == '}') { i++; return map }
            while (true) {
                skipWhitespace()
                if (peek() != '"') fail("expected a key")
                val key = readString()
                skipWhitespace()
                expect(':')
                map[key] = readValue(depth + 1)
                skipWhitespace()
                when (peek()) {
                    ',' -> i++
                    '}' -> { i++; return map }
                    else -> fail("expected ',' or '}'")
                }
            }
        }

        private fun readArray(depth: Int): List<Any?> {
            i++
            val list = ArrayList<Any?>()
            skipWhitespace()
            if (peek() == ']') { i++; return list }
            while (true) {
                list.add(readValue(depth + 1))
                skipWhitespace()
                when (peek()) {
                    ',' -> i++
                    ']' -> { i++; return list }
                    else -> fail("expected ',' or ']'")
                }
            }
        }

        private fun readString(): String {
            expect('"')
            val sb = StringBuilder()
            while (true) {
                if (i >= s.length) fail("unterminated string")
                val c = s[i++]
                when {
                    c == '"' -> return sb.toString()
                    c == '\\' -> {
                        if (i >= s.length) fail("unterminated escape")
                        when (val e = s[i++]) {
                            '"' -> sb.append('"')
                            '\\' -> sb.append('\\')
                            '/' -> sb.append('/')
                            'b' -> sb.append('\b')
                            'f' -> sb.append('\u000C')
                            'n' -> sb.append('\n')
                            'r' -> sb.append('\r')
                            't' -> sb.append('\t')
                            'u' -> {
                                if (i + 4 > s.length) fail("bad unicode escape")
                                sb.append(s.substring(i, i + 4).toIntOrNull(16)?.toChar() ?: fail("bad unicode escape"))
                                i += 4
                            }
                            else -> fail("bad escape '\\$e'")
                        }
                    }
                    else -> sb.append(c)
                }
            }
        }

        private fun readNumber(): Number {
            val start = i
            if (peek() == '-') i++
            while (i < s.length && (s[i].isDigit() || s[i] in ".eE+-")) i++
            val text = s.substring(start, i)
            val isInteger = text.none { it == '.' || it == 'e' || it == 'E' }
            return (if (isInteger) text.toLongOrNull() else null) ?: text.toDoubleOrNull() ?: fail("bad number '$text'")
        }

        private fun literal(word: String, value: Any?): Any? {
            if (!s.startsWith(word, i)) fail("unexpected token")
            i += word.length
            return value
        }

        private fun skipWhitespace() {
            while (i < s.length && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++
        }

        private fun peek(): Char = if (i < s.length) s[i] else fail("unexpected end")

        private fun expect(c: Char) {
            if (peek() != c) fail("expected '$c'")
            i++
        }

        private fun fail(message: String): Nothing = throw JsonException("$message at offset $i")
    }
}

internal class JsonException(message: String) : RuntimeException(message)
