package dev.vigil.core.binding

import dev.vigil.core.platform.Clock
import java.security.MessageDigest

/**
 * Signs requests as the server verifies them (server/src/binding/signature.ts; README, "Device binding"). The
 * signing input is one field a line, UTF-8:
 *
 * ```
 * vigil-device-signature-v1
 * POST                           (method, upper case)
 * /devices/vd_123/register       (path and query as sent, percent-encoded as sent)
 * <key id>                       (Vigil-Device-Key-Id)
 * 1795000000                     (Vigil-Signature-Time, Unix seconds)
 * <SHA-256 of the body bytes, lower-case hex>
 * ```
 */
internal class RequestSigner(private val signer: DeviceSigner, private val clock: Clock) {
    /** The three headers for a request with [body] (null: no body). */
    fun headers(method: String, path: String, body: ByteArray?): Map<String, String> {
        val keyId = signer.keyId
        val time = clock.nowMillis() / 1000
        val input = signingInput(method, path, keyId, time, sha256Hex(body ?: ByteArray(0)))
        return linkedMapOf(
            HEADER_KEY_ID to keyId,
            HEADER_TIME to time.toString(),
            HEADER_SIGNATURE to Base64Der.encode(signer.sign(input.toByteArray(Charsets.UTF_8))),
        )
    }

    /** `device_key` of the registration body: the public key and its chain, base64 DER. */
    fun deviceKey(): Map<String, Any?> {
        return linkedMapOf(
            "public_key" to Base64Der.encode(signer.publicKey),
            "attestation_chain" to signer.attestationChain.map { Base64Der.encode(it) },
        )
    }

    companion object {
        const val SCHEME = "vigil-device-signature-v1"
        const val HEADER_KEY_ID = "Vigil-Device-Key-Id"
        const val HEADER_TIME = "Vigil-Signature-Time"
        const val HEADER_SIGNATURE = "Vigil-Device-Signature"

        fun signingInput(method: String, path: String, keyId: String, time: Long, bodySha256: String): String =
            listOf(SCHEME, method.uppercase(), path, keyId, time.toString(), bodySha256).joinToString("\n")

        fun sha256Hex(bytes: ByteArray): String =
            MessageDigest.getInstance("SHA-256").digest(bytes).joinToString("") { "%02x".format(it) }
    }
}
