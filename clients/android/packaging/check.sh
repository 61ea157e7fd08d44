#!/usr/bin/env bash
# Checks the publication `mvn deploy` wrote to clients/android/target/maven-repo: the AAR's layout, manifest and
# classes and the POM (CheckPublication.java), then that an app-like Maven project resolves the AAR from that
# repository, offline, and compiles against the public API (consumer/).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$here/../target/maven-repo"
version="0.1.0"

java "$here/CheckPublication.java" "$repo" "$version"

# The consumer must see this build's publication, not a copy cached by an earlier run: drop our own cached
# artifact from the local repository (and only it) so Maven takes it from the published repository again.
rm -rf "${HOME}/.m2/repository/dev/vigil/vigil-android/$version"
# -o: everything else is already cached by the library build; file:// stays allowed offline (the local repo).
offline=(-B -ntp -q -o -Daether.offline.protocols=file -f "$here/consumer/pom.xml")
# Two runs: Maven resolves every dependency before a build starts, and the consumer's compile classpath names the
# AAR's classes.jar, which exists only once the AAR is resolved and unpacked (as the Android build does).
mvn "${offline[@]}" clean dependency:copy@copy-aar
(cd "$here/consumer/target/vigil-aar" && jar xf vigil-android.aar classes.jar)
mvn "${offline[@]}" compile
echo "consumer check: a Maven project resolved dev.vigil:vigil-android:$version (aar) from $repo and compiled"

# And the implementation stays out of reach: code naming internal classes must be refused by the compiler.
if out="$(mvn "${offline[@]}" -Dconsumer.sources="$here/consumer/src/internal/kotlin" compile 2>&1)"; then
  echo "consumer check failed: code using SqliteEventQueue/VigilClient compiled; they must be internal" >&2
  exit 1
fi
for cls in SqliteEventQueue VigilClient; do
  if ! grep -q "Cannot access '$cls': it is internal" <<<"$out"; then
    echo "consumer check failed: expected '$cls' to be refused as internal; compiler said:" >&2
    echo "$out" >&2
    exit 1
  fi
done
echo "consumer check: implementation classes (SqliteEventQueue, VigilClient) are internal to the library"
