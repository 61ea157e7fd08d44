package dev.vigil.testing

/**
 * JUnit category for contract tests that need the device registry routes (/devices/{id}/register,
 * /registration, /deactivate), the supervisor REST routes (/api/devices) and GraphQL. They run by default with
 * every other test; `-Pregistry-contract` runs only these.
 */
interface RegistryContract
