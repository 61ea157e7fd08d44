package dev.vigil.core.signals

import dev.vigil.core.json.Json
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.junit.runners.Parameterized
import java.io.File

/**
 * clients/evidence-cases.json, the cases the server's device_signals judge is tested against too. Surefire runs
 * in the module directory (clients/android/vigil), so the repository root is three levels up.
 */
private val repoRoot = File("../../..")
private val file: Map<String, Any?> by lazy { Json.parseObject(File(repoRoot, "clients/evidence-cases.json").readText(Charsets.UTF_8)) }

class EvidenceCase(raw: Map<*, *>) {
    val name = raw["name"] as String
    val evidence = (raw["evidence"] as Map<*, *>).entries.associate { (section, items) -> section as String to items as List<*> }
    val tags = (raw["tags"] as List<*>).map { it as String }

    /** The `device_signals` block the Android library would send with this evidence. */
    val signals: Map<String, Any?> = mapOf("version" to 1, "platform" to "android") +
        evidence.mapValues { (_, items) -> mapOf("detected" to items.isNotEmpty(), "evidence" to items) }

    override fun toString() = name

    companion object {
        fun all(): List<EvidenceCase> = (file["cases"] as List<*>).map { EvidenceCase(it as Map<*, *>) }
    }
}

/** Every case against the offline verdict ([LocalTags]); each test is named by its case's sentence. */
@RunWith(Parameterized::class)
class EvidenceCasesTest(private val case: EvidenceCase) {
    companion object {
        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun cases(): List<EvidenceCase> = EvidenceCase.all()
    }

    @Test
    fun `offline, the device earns the tags the server would give`() {
        assertEquals(case.tags, LocalTags.from(case.signals).toList())
    }
}

class ShippedEvidenceTableTest {
    @Test
    fun `the library ships the server's evidence table as it is in the repository`() {
        val shipped = EvidenceTable::class.java.getResourceAsStream(EvidenceTable.RESOURCE)!!.use { it.readBytes() }
        val server = File(repoRoot, "server/src/risk/device/android-evidence.json").readBytes()
        assertTrue("the shipped table differs from the server's; rebuild (mvn copies it at process-resources)", shipped.contentEquals(server))
    }

    @Test
    fun `the client's detected flags are not trusted, only the evidence`() {
        val claimed = mapOf("version" to 1, "root" to mapOf("detected" to true, "evidence" to emptyList<String>()))
        assertEquals(emptySet<String>(), LocalTags.from(claimed))
    }

    @Test
    fun `a table is judged as written, so a weak rule alone never tags`() {
        val table = EvidenceTable.parse("""{"tags":{"rooted":{"section":"root","rules":[{"match":"^a$","weight":0.5},{"match":"^b","weight":0.5}]}}}""")
        assertEquals(emptySet<String>(), table.judge(mapOf("root" to mapOf("evidence" to listOf("a", "a")))))
        assertEquals(setOf("rooted"), table.judge(mapOf("root" to mapOf("evidence" to listOf("a", "b1")))))
    }
}
