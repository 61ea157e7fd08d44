#!/usr/bin/env bash
# Checks the publication `mvn deploy` wrote to clients/android/target/maven-repo: the AAR's layout, manifest and
# classes and the POM (CheckPublication.java), then that an app-like Maven project resolves the AAR from that
# repository, offline, and compiles against the public API (consumer/).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$here/../target/maven-repo"
version="0.1.0"

# A one-second JVM: C1 alone and the serial GC spend half the CPU of the defaults (as Maven's, .mvn/jvm.config).
java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC "$here/CheckPublication.java" "$repo" "$version"

# The consumer must see this build's publication, not a copy cached by an earlier run: drop our own cached
# artifact from the local repository (and only it) so Maven takes it from the published repository again.
rm -rf "${HOME}/.m2/repository/dev/vigil/vigil-android/$version"
# -o: everything else is already cached by the library build; file:// stays allowed offline (the local repo).
offline=(-B -ntp -q -o -Daether.offline.protocols=file -f "$here/consumer/pom.xml")
# Earlier output goes by hand, not with Maven's `clean`: offline, Maven may only use plugins the library build
# itself downloaded, and on a fresh machine that build never needed maven-clean-plugin.
rm -rf "$here/consumer/target"
# Two runs: Maven resolves every dependency before a build starts, and the consumer's compile classpath names the
# AAR's classes.jar, which exists only once the AAR is resolved and unpacked (as the Android build does).
mvn "${offline[@]}" dependency:copy@copy-aar
(cd "$here/consumer/target/vigil-aar" && jar xf vigil-android.aar classes.jar)
# One run for both compiles (one JVM warms the Kotlin compiler once): the app (execution `compile`), then, only if
# that succeeded, code naming internal classes (profile `internal`), which the compiler must refuse.
if out="$(mvn "${offline[@]}" -Pinternal compile 2>&1)"; then
  echo "consumer check failed: code using SqliteEventQueue/VigilClient compiled; they must be internal" >&2
  exit 1
fi
# The removal above took any earlier output, so the app's class is this run's: the public API compiled.
if [ ! -f "$here/consumer/target/classes/example/ConsumerApp.class" ]; then
  echo "consumer check failed: the app did not compile against the published AAR; Maven said:" >&2
  echo "$out" >&2
  exit 1
fi
echo "consumer check: a Maven project resolved dev.vigil:vigil-android:$version (aar) from $repo and compiled"

# And the implementation stays out of reach: code naming internal classes must be refused by the compiler.
for cls in SqliteEventQueue VigilClient; do
  if ! grep -q "Cannot access '$cls': it is internal" <<<"$out"; then
    echo "consumer check failed: expected '$cls' to be refused as internal; compiler said:" >&2
    echo "$out" >&2
    exit 1
  fi
done
echo "consumer check: implementation classes (SqliteEventQueue, VigilClient) are internal to the library"
