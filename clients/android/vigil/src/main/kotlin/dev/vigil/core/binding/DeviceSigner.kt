package dev.vigil.core.binding

import java.security.MessageDigest

/**
 * The key this device is bound to (README, "Device binding"): registered once with its attestation chain, then
 * signing every registration change and every event batch. On a device it lives in the Android Keystore and never
 * leaves it ([dev.vigil.android.KeystoreDeviceSigner]); where there is no Keystore (the JVM, Robolectric) a JCA key
 * stands in ([JcaDeviceSigner]).
 */
internal interface DeviceSigner {
    /** The public key, DER SubjectPublicKeyInfo (EC P-256). */
    val publicKey: ByteArray

    /** The key attestation chain, DER certificates, the key's own first; empty when the platform attests nothing. */
    val attestationChain: List<ByteArray>

    /** An ECDSA P-256 SHA-256 signature of [data], DER-encoded. */
    fun sign(data: ByteArray): ByteArray
}

/** The key id the server knows the key by: base64url SHA-256 of the SPKI, unpadded (`Vigil-Device-Key-Id`). */
internal val DeviceSigner.keyId: String
    get() = Base64Der.encodeUrlUnpadded(MessageDigest.getInstance("SHA-256").digest(publicKey))
