package dev.vigil.core.binding

import kotlin.io.encoding.Base64
import kotlin.io.encoding.ExperimentalEncodingApi

/**
 * Base64 of keys, certificates and signatures through the Kotlin standard library: `java.util.Base64` arrived only in
 * API 26 and `android.util.Base64` is not on the JVM the core also runs on.
 */
@OptIn(ExperimentalEncodingApi::class)
internal object Base64Der {
    fun encode(bytes: ByteArray): String = Base64.Default.encode(bytes)
    fun decode(text: String): ByteArray = Base64.Default.decode(text)
    fun encodeUrlUnpadded(bytes: ByteArray): String = Base64.UrlSafe.encode(bytes).trimEnd('=')
}
