package dev.vigil.core.binding

import dev.vigil.core.platform.KeyValueStore
import java.security.KeyFactory
import java.security.KeyPair
import java.security.KeyPairGenerator
import java.security.Signature
import java.security.spec.ECGenParameterSpec
import java.security.spec.PKCS8EncodedKeySpec
import java.security.spec.X509EncodedKeySpec

/**
 * A software EC P-256 key from the platform's JCA provider, for where there is no Android Keystore (the JVM,
 * Robolectric, a device whose Keystore fails). It has no attestation chain, so the server binds it as
 * `unverified`; it is kept in the library's settings so the device keeps its binding across restarts.
 */
internal class JcaDeviceSigner(private val keys: KeyPair) : DeviceSigner {
    override val publicKey: ByteArray = keys.public.encoded
    override val attestationChain: List<ByteArray> = emptyList()

    override fun sign(data: ByteArray): ByteArray =
        Signature.getInstance("SHA256withECDSA").run {
            initSign(keys.private)
            update(data)
            sign()
        }

    companion object {
        private const val KEY_PRIVATE = "vigil.device_key.pkcs8"
        private const val KEY_PUBLIC = "vigil.device_key.spki"

        fun generate(): KeyPair =
            KeyPairGenerator.getInstance("EC").apply { initialize(ECGenParameterSpec("secp256r1")) }.generateKeyPair()

        /** The key kept in [store], created (and kept) at first use. */
        fun loadOrCreate(store: KeyValueStore): JcaDeviceSigner {
            val private = store.getString(KEY_PRIVATE)
            val public = store.getString(KEY_PUBLIC)
            if (private != null && public != null) {
                val factory = KeyFactory.getInstance("EC")
                return JcaDeviceSigner(
                    KeyPair(factory.generatePublic(X509EncodedKeySpec(Base64Der.decode(public))), factory.generatePrivate(PKCS8EncodedKeySpec(Base64Der.decode(private))))
                )
            }
            val keys = generate()
            store.putString(KEY_PUBLIC, Base64Der.encode(keys.public.encoded))
            store.putString(KEY_PRIVATE, Base64Der.encode(keys.private.encoded))
            return JcaDeviceSigner(keys)
        }
    }
}
