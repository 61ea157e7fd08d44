package dev.vigil.android

import android.os.Build
import android.security.keystore.KeyGenParameterSpec
import android.security.keystore.KeyProperties
import android.security.keystore.StrongBoxUnavailableException
import dev.vigil.core.binding.DeviceSigner
import dev.vigil.core.binding.JcaDeviceSigner
import dev.vigil.core.platform.KeyValueStore
import dev.vigil.core.platform.Logger
import java.security.KeyPairGenerator
import java.security.KeyStore
import java.security.PrivateKey
import java.security.Signature
import java.security.spec.ECGenParameterSpec

/**
 * The device key in the Android Keystore: EC P-256, signing only, not exportable, in StrongBox where the device
 * has one (API 28+), else in the TEE. Created at first start with the device id as attestation challenge (API
 * 24+), so the server can check the chain was made for this device id (README, "Device binding").
 */
internal class KeystoreDeviceSigner private constructor(
    private val key: PrivateKey,
    override val publicKey: ByteArray,
    override val attestationChain: List<ByteArray>,
) : DeviceSigner {
    override fun sign(data: ByteArray): ByteArray =
        Signature.getInstance("SHA256withECDSA").run {
            initSign(key)
            update(data)
            sign()
        }

    companion object {
        private const val PROVIDER = "AndroidKeyStore"
        const val ALIAS = "dev.vigil.device-key"

        /** The Keystore key, created on first use; throws where there is no Keystore. */
        fun loadOrCreate(deviceId: String): KeystoreDeviceSigner {
            val keyStore = KeyStore.getInstance(PROVIDER).apply { load(null) }
            if (!keyStore.containsAlias(ALIAS)) generate(deviceId)
            val key = keyStore.getKey(ALIAS, null) as PrivateKey
            val chain = keyStore.getCertificateChain(ALIAS)?.map { it.encoded } ?: emptyList()
            return KeystoreDeviceSigner(key, keyStore.getCertificate(ALIAS).publicKey.encoded, chain)
        }

        private fun generate(deviceId: String) {
            try {
                generate(deviceId, strongBox = Build.VERSION.SDK_INT >= Build.VERSION_CODES.P)
            } catch (e: Exception) {
                // StrongBoxUnavailableException (API 28+) when the device has no secure element: the TEE it is.
                if (Build.VERSION.SDK_INT < Build.VERSION_CODES.P || e !is StrongBoxUnavailableException) throw e
                generate(deviceId, strongBox = false)
            }
        }

        private fun generate(deviceId: String, strongBox: Boolean) {
            val spec = KeyGenParameterSpec.Builder(ALIAS, KeyProperties.PURPOSE_SIGN)
                .setAlgorithmParameterSpec(ECGenParameterSpec("secp256r1"))
                .setDigests(KeyProperties.DIGEST_SHA256)
                .apply {
                    if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.N) setAttestationChallenge(deviceId.toByteArray(Charsets.UTF_8))
                    if (strongBox) setIsStrongBoxBacked(true)
                }
                .build()
            KeyPairGenerator.getInstance(KeyProperties.KEY_ALGORITHM_EC, PROVIDER).apply { initialize(spec) }.generateKeyPair()
        }
    }
}

/** The device's signer: the Keystore key, or a JCA key kept in [store] where the Keystore is missing or fails. */
internal fun deviceSigner(deviceId: String, store: KeyValueStore, logger: Logger): DeviceSigner =
    try {
        KeystoreDeviceSigner.loadOrCreate(deviceId)
    } catch (e: Exception) {
        logger.log(Logger.Level.WARN, "no Android Keystore key (${e.javaClass.simpleName}); binding this device to a software key", null)
        JcaDeviceSigner.loadOrCreate(store)
    }
