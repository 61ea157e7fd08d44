package dev.vigil.core.result

/**
 * Every public operation answers with a value: a success, or a failure carrying a message. Nothing is thrown
 * into the host app. (kotlin.Result is awkward for Java callers, hence our own type.)
 */
sealed class VigilResult<out T> {
    data class Success<out T>(val value: T) : VigilResult<T>()
    data class Failure(val error: VigilError) : VigilResult<Nothing>()

    val isSuccess: Boolean get() = this is Success
    fun getOrNull(): T? = (this as? Success)?.value
    fun errorOrNull(): VigilError? = (this as? Failure)?.error

    inline fun <R> map(transform: (T) -> R): VigilResult<R> = when (this) {
        is Success -> Success(transform(value))
        is Failure -> this
    }

    inline fun onSuccess(action: (T) -> Unit): VigilResult<T> = apply { if (this is Success) action(value) }
    inline fun onFailure(action: (VigilError) -> Unit): VigilResult<T> = apply { if (this is Failure) action(error) }
}

/**
 * Why an operation failed. [status] and [code] come from the server's problem+json when there was one.
 */
data class VigilError(
    val kind: Kind,
    val message: String,
    val status: Int? = null,
    val code: String? = null,
) {
    enum class Kind {
        /** Vigil.init has not run or the configuration is invalid. */
        NOT_INITIALIZED,
        /** No network; the operation needs the server. */
        OFFLINE,
        /** The server said no (4xx): bad input, unknown key, conflict. */
        REJECTED,
        /** The server or network failed (5xx, 429, timeout); the operation can be retried. */
        UNAVAILABLE,
        /** Something unexpected inside the library; reported instead of thrown. */
        INTERNAL,
        /** The app switched Vigil off (`Vigil.setEnabled(false)`): nothing is collected or sent. */
        DISABLED,
    }
}

/** Callback for Java callers and anyone not using coroutines. Invoked on a background thread. */
fun interface VigilCallback<T> {
    fun onResult(result: VigilResult<T>)
}
