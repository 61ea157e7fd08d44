package dev.vigil.testing

import dev.vigil.core.http.HttpRequest
import dev.vigil.core.http.UrlConnectionHttpClient
import dev.vigil.core.json.Json
import java.io.File
import java.net.HttpURLConnection
import java.net.ServerSocket
import java.net.URL
import java.nio.file.Files
import java.util.concurrent.TimeUnit

/**
 * The real Vigil server (server/dist/cli.js), started once per test JVM on a free port with a fresh database: the
 * PostgreSQL database named by VIGIL_CONTRACT_DATABASE_URL when test.sh made one, else an embedded one. Its first
 * start prints a client key and an admin account (the server's first-start banner, into [log]); the supervisor and
 * its API token are created through the admin API. No CLI run: each would be a Node start that loads the whole
 * server, and the embedded database allows one process per data dir, so they could not overlap.
 *
 * Once per JVM, not once per class loader: Robolectric loads this class again in each SDK's sandbox (API 23 and
 * 35), and plain JUnit classes load it from the application class loader, so a static field alone would start
 * three servers (each a fresh migration and Node starts: most of the suite's time). The first caller starts it
 * and publishes its address and keys as system properties, which every class loader sees.
 */
class ContractServer private constructor(
    val url: String,
    val clientKey: String,
    /** A supervisor's API token for /api/devices (null when -Dvigil.contract.supervisor=false). */
    val supervisorToken: String?,
    val log: File,
) {
    companion object {
        private const val URL = "vigil.contract.server.url"
        private const val CLIENT_KEY = "vigil.contract.server.clientKey"
        private const val SUPERVISOR_TOKEN = "vigil.contract.server.supervisorToken"
        private const val LOG = "vigil.contract.server.log"

        /** A JVM-wide monitor: string literals are interned once for the whole JVM, whatever the class loader. */
        private const val LOCK = "dev.vigil.testing.ContractServer"

        /** True unless -Dvigil.contract.supervisor=false: the supervisor routes need a supervisor account and API token. */
        private val wantsSupervisor get() = System.getProperty("vigil.contract.supervisor") == "true"

        fun get(): ContractServer = synchronized(LOCK) {
            published() ?: start().also { server ->
                System.setProperty(URL, server.url)
                System.setProperty(CLIENT_KEY, server.clientKey)
                server.supervisorToken?.let { System.setProperty(SUPERVISOR_TOKEN, it) }
                System.setProperty(LOG, server.log.path)
            }
        }

        private fun published(): ContractServer? {
            val url = System.getProperty(URL) ?: return null
            return ContractServer(url, System.getProperty(CLIENT_KEY), System.getProperty(SUPERVISOR_TOKEN), File(System.getProperty(LOG)))
        }

        private fun repoRoot(): File {
            val configured = System.getProperty("vigil.repoRoot")
            val root = if (configured != null) File(configured) else File("../../..")
            return root.canonicalFile
        }

        private fun start(): ContractServer {
            val cli = File(repoRoot(), "server/dist/cli.js")
            check(cli.isFile) {
                "The Vigil server is not built: $cli is missing. Run `pnpm install && pnpm build` at the repository root first."
            }
            val dataDir = Files.createTempDirectory("vigil-android-contract").toFile()
            val log = File(dataDir.parentFile, dataDir.name + ".log")
            val database = System.getenv("VIGIL_CONTRACT_DATABASE_URL")
            val env = mapOf("NO_COLOR" to "1") +
                (if (database != null) mapOf("DATABASE_URL" to database) else mapOf("VIGIL_DATA_DIR" to File(dataDir, "db").path))
            val port = ServerSocket(0).use { it.localPort }
            // PGlite on V8's baseline compiler alone, as the server's own tests run it (server/src/test-support/
            // node-flags.ts): a test server lives a minute, too short to repay the optimising recompile.
            val process = ProcessBuilder("node", "--liftoff-only", cli.path, "serve")
                .directory(dataDir)
                .redirectErrorStream(true)
                .redirectOutput(log)
                .apply {
                    // The database is this server's own, whatever DATABASE_URL the developer's shell has.
                    environment().remove("DATABASE_URL")
                    environment().putAll(env)
                    environment()["PORT"] = port.toString()
                    environment()["HOST"] = "127.0.0.1"
                }
                .start()
            val url = "http://127.0.0.1:$port"
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120)
            while (true) {
                if (!process.isAlive) error("the Vigil server exited (code ${process.exitValue()}):\n${log.readText()}")
                if (healthy(url)) break
                if (System.nanoTime() > deadline) {
                    process.destroyForcibly()
                    error("the Vigil server did not become healthy within 120 s:\n${log.readText()}")
                }
                Thread.sleep(200)
            }
            Runtime.getRuntime().addShutdownHook(Thread {
                process.destroy()
                if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly()
                dataDir.deleteRecursively()
            })
            // The banner is written before the server listens, so it is in the log once /healthz answers.
            val banner = log.readText()
            fun printed(pattern: String) = Regex(pattern).find(banner)?.groupValues?.get(1)
                ?: error("the Vigil server's first start printed no match for $pattern:\n$banner")
            val clientKey = printed("Client key[^\n]*\n\\s*(vigil_ck_\\S+)")
            val adminLogin = mapOf("username" to printed("username: (\\S+)"), "password" to printed("password: (\\S+)"))
            val session = call("$url/api/auth/login", null, adminLogin)["token"] as String
            val supervisorToken = if (!wantsSupervisor) null else {
                admin(url, session, "createSupervisor(username: \"android-supervisor\", role: SUPERVISOR) { password }")
                admin(url, session, "createToken(username: \"android-supervisor\", name: \"android-contract\") { token }")["token"] as String
            }
            return ContractServer(url, clientKey, supervisorToken, log)
        }

        /** Runs one admin GraphQL mutation ([field] with its selection) and answers its result. */
        private fun admin(url: String, session: String, field: String): Map<*, *> {
            val answer = call("$url/graphql", session, mapOf("query" to "mutation { $field }"))
            check(answer["errors"] == null) { "GraphQL mutation { $field } failed: $answer" }
            return (answer["data"] as Map<*, *>).values.single() as Map<*, *>
        }

        /** POSTs JSON (with a bearer [token] when given) and answers the JSON object, failing on a non-200 answer. */
        private fun call(url: String, token: String?, body: Map<String, Any?>): Map<String, Any?> {
            val headers = mapOf("Content-Type" to "application/json", "Accept" to "application/json") +
                (if (token == null) emptyMap() else mapOf("Authorization" to "Bearer $token"))
            val response = UrlConnectionHttpClient().execute(HttpRequest("POST", url, headers, Json.stringify(body).toByteArray()))
            check(response.status == 200) { "POST $url answered ${response.status}: ${response.body}" }
            return Json.parseObject(response.body)
        }

        private fun healthy(url: String): Boolean = try {
            val c = URL("$url/healthz").openConnection() as HttpURLConnection
            c.connectTimeout = 500
            c.readTimeout = 2000
            try {
                c.responseCode == 200
            } finally {
                c.disconnect()
            }
        } catch (e: Exception) {
            false
        }
    }
}
