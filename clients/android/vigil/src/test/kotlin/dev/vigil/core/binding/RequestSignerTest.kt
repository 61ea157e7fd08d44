package dev.vigil.core.binding

import dev.vigil.core.platform.Clock
import dev.vigil.core.platform.MemoryKeyValueStore
import org.junit.Assert.assertArrayEquals
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import java.security.KeyFactory
import java.security.MessageDigest
import java.security.Signature
import java.security.spec.X509EncodedKeySpec

/** The request signature as the server verifies it, with the JCA provider the tests run on (no Keystore here). */
class RequestSignerTest {
    private val now = 1_795_000_000_000L
    private val signer = JcaDeviceSigner(JcaDeviceSigner.generate())
    private val requests = RequestSigner(signer, Clock { now })

    private fun verifies(publicKey: ByteArray, input: String, signature: ByteArray): Boolean {
        val key = KeyFactory.getInstance("EC").generatePublic(X509EncodedKeySpec(publicKey))
        return Signature.getInstance("SHA256withECDSA").run {
            initVerify(key)
            update(input.toByteArray(Charsets.UTF_8))
            verify(signature)
        }
    }

    @Test
    fun `the signing input is the server's, field for field (server binding signature test has the same vector)`() {
        assertEquals(
            "vigil-device-signature-v1\nPOST\n/devices/d1/register\nk1\n1700000000\nab",
            RequestSigner.signingInput("post", "/devices/d1/register", "k1", 1_700_000_000L, "ab"),
        )
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", RequestSigner.sha256Hex(ByteArray(0)))
    }

    @Test
    fun `headers carry the key id, the time in seconds and a signature the public key verifies over that request only`() {
        val body = """{"events":[{"event":"login"}]}""".toByteArray()
        val headers = requests.headers("POST", "/events/batch", body)
        val keyId = headers.getValue(RequestSigner.HEADER_KEY_ID)
        assertEquals(Base64Der.encodeUrlUnpadded(MessageDigest.getInstance("SHA-256").digest(signer.publicKey)), keyId)
        assertEquals(43, keyId.length)
        assertEquals("1795000000", headers.getValue(RequestSigner.HEADER_TIME))
        val signature = Base64Der.decode(headers.getValue(RequestSigner.HEADER_SIGNATURE))
        val input = RequestSigner.signingInput("POST", "/events/batch", keyId, 1_795_000_000L, RequestSigner.sha256Hex(body))
        assertTrue(verifies(signer.publicKey, input, signature))
        val otherBody = RequestSigner.signingInput("POST", "/events/batch", keyId, 1_795_000_000L, RequestSigner.sha256Hex(body + ' '.code.toByte()))
        assertFalse(verifies(signer.publicKey, otherBody, signature))
        assertFalse(verifies(JcaDeviceSigner(JcaDeviceSigner.generate()).publicKey, input, signature))
    }

    @Test
    fun `the registration carries the public key as SPKI and the chain, base64`() {
        val key = requests.deviceKey()
        assertArrayEquals(signer.publicKey, Base64Der.decode(key["public_key"] as String))
        assertEquals(emptyList<String>(), key["attestation_chain"])
        // An EC P-256 SubjectPublicKeyInfo, as the server requires.
        assertEquals("EC", KeyFactory.getInstance("EC").generatePublic(X509EncodedKeySpec(signer.publicKey)).algorithm)
        assertEquals(91, signer.publicKey.size)
    }

    @Test
    fun `the JCA key is made once and kept, so the device stays bound to it across restarts`() {
        val store = MemoryKeyValueStore()
        val first = JcaDeviceSigner.loadOrCreate(store)
        val again = JcaDeviceSigner.loadOrCreate(store)
        assertArrayEquals(first.publicKey, again.publicKey)
        val input = "signed by the first, verified with the second".toByteArray()
        assertTrue(verifies(again.publicKey, String(input), first.sign(input)))
    }
}
