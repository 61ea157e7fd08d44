package dev.vigil.core

import dev.vigil.core.json.Json
import dev.vigil.core.json.JsonException
import org.junit.Assert.assertEquals
import org.junit.Test

class JsonTest {
    @Test
    fun `values survive a round trip`() {
        val value = mapOf(
            "s" to "quote \" backslash \\ newline \n tab \t unicode é \u0001",
            "i" to 42L, "d" to 2.5, "b" to true, "n" to null,
            "list" to listOf(1L, "two", mapOf("three" to 3L)),
        )
        assertEquals(value, Json.parse(Json.stringify(value)))
    }

    @Test
    fun `escapes and numbers from other writers are read`() {
        assertEquals(mapOf("a" to "é/", "b" to -1.5e3, "c" to listOf<Any?>()), Json.parse("""{ "a" : "\u00e9\/", "b": -1.5E3, "c": [ ] }"""))
    }

    @Test(expected = JsonException::class)
    fun `trailing garbage is an error`() {
        Json.parse("""{"a":1} x""")
    }

    @Test(expected = JsonException::class)
    fun `an unterminated string is an error`() {
        Json.parse("\"abc")
    }
}
