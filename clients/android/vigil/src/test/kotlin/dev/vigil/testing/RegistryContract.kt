package dev.vigil.testing

/**
 * JUnit category for contract tests that need the device registry routes (/devices/{id}/register,
 * /registration, /deactivate and the supervisor /api/devices routes). Those come from the registry issue, so
 * Surefire excludes this category by default; `mvn test -Pregistry-contract` runs it.
 */
interface RegistryContract
