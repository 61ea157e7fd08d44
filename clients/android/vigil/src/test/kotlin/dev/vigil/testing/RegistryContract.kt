package dev.vigil.testing

/**
 * JUnit category for contract tests that need the device registry routes (/devices/{id}/register,
 * /registration, /deactivate), the supervisor REST routes (/api/devices) and GraphQL. Those come from other
 * issues, so Surefire excludes this category by default; `-Pregistry-contract` runs only these,
 * `-Pall-contracts` runs everything.
 */
interface RegistryContract
