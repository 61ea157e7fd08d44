package dev.vigil.core.signals

import dev.vigil.core.json.Json

/**
 * Evidence -> tags, read from the server's table (server/src/risk/device/android-evidence.json, shipped in the
 * library as [RESOURCE]). A tag applies when the weights of the distinct rules its section's evidence matches add
 * up to at least 1; each rule counts once and an evidence string counts for the first rule it matches, exactly as
 * the server's `score()` does, so an offline answer tags only what the server would.
 */
internal class EvidenceTable(private val tags: List<TagRules>) {
    class Rule(val match: Regex, val weight: Double)

    class TagRules(val tag: String, val section: String, val rules: List<Rule>)

    /** The tags [signals] (a `device_signals` block) earn, in table order. The client's `detected` flags are ignored. */
    fun judge(signals: Map<String, Any?>): Set<String> = tags.mapNotNullTo(LinkedHashSet()) { t ->
        val block = signals[t.section] as? Map<*, *>
        // As the server reads it: strings only, at most 200.
        val evidence = (block?.get("evidence") as? List<*>)?.filterIsInstance<String>()?.take(MAX_EVIDENCE) ?: emptyList()
        if (score(evidence, t.rules) >= 1.0) t.tag else null
    }

    private fun score(evidence: List<String>, rules: List<Rule>): Double {
        var total = 0.0
        val used = HashSet<Rule>()
        for (item in LinkedHashSet(evidence)) {
            val rule = rules.firstOrNull { it.match.containsMatchIn(item) } ?: continue
            if (used.add(rule)) total += rule.weight
        }
        return total
    }

    companion object {
        const val RESOURCE = "/dev/vigil/android-evidence.json"
        private const val MAX_EVIDENCE = 200

        fun parse(text: String): EvidenceTable {
            val tags = Json.parseObject(text)["tags"] as Map<*, *>
            return EvidenceTable(
                tags.map { (tag, value) ->
                    val entry = value as Map<*, *>
                    TagRules(
                        tag = tag as String,
                        section = entry["section"] as String,
                        rules = (entry["rules"] as List<*>).map {
                            val rule = it as Map<*, *>
                            Rule(Regex(rule["match"] as String), (rule["weight"] as Number).toDouble())
                        },
                    )
                }
            )
        }

        /** The table this library was built with; read once, on first use (off the main thread: `track` runs there). */
        fun shipped(): EvidenceTable {
            val stream = EvidenceTable::class.java.getResourceAsStream(RESOURCE)
                ?: throw IllegalStateException("$RESOURCE is missing from the library")
            return parse(stream.use { it.readBytes().toString(Charsets.UTF_8) })
        }
    }
}

/** Which critical tags (emulator, rooted, hooked) the local evidence earns by the server's table; for offline answers. */
internal object LocalTags {
    // A library packaged without its table (a stripped resource) gives no local tags rather than failing `track`;
    // packaging/check.sh makes sure the published AAR has it.
    private val table: EvidenceTable? by lazy { runCatching { EvidenceTable.shipped() }.getOrNull() }

    fun from(signals: Map<String, Any?>): Set<String> = table?.judge(signals) ?: emptySet()
}
