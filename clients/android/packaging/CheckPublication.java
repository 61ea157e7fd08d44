import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * Opens what `mvn deploy` published into the local Maven repository and checks it is what an Android build
 * expects: the AAR's layout, its manifest, its classes, and a POM that declares what the library needs.
 * Run with `java CheckPublication.java <repo> <version>`; exits non-zero listing every problem.
 */
public class CheckPublication {
    static final List<String> problems = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get(args[0], "dev", "vigil", "vigil-android", args[1]);
        String base = "vigil-android-" + args[1];
        for (String suffix : new String[] {".aar", ".pom", "-sources.jar", "-javadoc.jar"}) {
            expect(Files.isRegularFile(dir.resolve(base + suffix)), "published " + base + suffix);
        }
        if (problems.isEmpty()) {
            checkAar(dir.resolve(base + ".aar"));
            checkPom(new String(Files.readAllBytes(dir.resolve(base + ".pom")), StandardCharsets.UTF_8));
            try (ZipFile sources = new ZipFile(dir.resolve(base + "-sources.jar").toFile())) {
                expect(sources.getEntry("dev/vigil/Vigil.kt") != null, "sources jar holds dev/vigil/Vigil.kt");
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("publication check failed: " + p));
            System.exit(1);
        }
        System.out.println("publication check: " + dir + " is a complete AAR publication");
    }

    static void checkAar(Path aar) throws Exception {
        try (ZipFile zip = new ZipFile(aar.toFile())) {
            for (String entry : new String[] {"AndroidManifest.xml", "classes.jar", "proguard.txt", "R.txt"}) {
                expect(zip.getEntry(entry) != null, "AAR has " + entry + " at its root");
            }
            if (!problems.isEmpty()) return;
            String manifest = text(zip, "AndroidManifest.xml");
            expect(manifest.contains("package=\"dev.vigil\""), "manifest declares package dev.vigil");
            expect(manifest.contains("android:minSdkVersion=\"23\""), "manifest declares minSdkVersion 23");
            expect(manifest.contains("android.permission.INTERNET"), "manifest declares INTERNET");
            expect(manifest.contains("android.permission.ACCESS_NETWORK_STATE"), "manifest declares ACCESS_NETWORK_STATE");
            expect(manifest.contains("dev.vigil.android.VigilSyncJobService") && manifest.contains("android.permission.BIND_JOB_SERVICE"),
                    "manifest declares the background delivery job service, bound only by the system");
            expect(text(zip, "proguard.txt").contains("-keepclassmembers"), "proguard.txt holds keep rules");

            List<String> classes = new ArrayList<>();
            try (ZipInputStream jar = new ZipInputStream(zip.getInputStream(zip.getEntry("classes.jar")))) {
                for (ZipEntry e; (e = jar.getNextEntry()) != null; ) classes.add(e.getName());
            }
            for (String publicApi : new String[] {
                    "dev/vigil/Vigil.class", "dev/vigil/VigilConfig.class",
                    "dev/vigil/core/result/VigilResult.class", "dev/vigil/core/result/VigilError.class",
                    "dev/vigil/core/result/VigilCallback.class", "dev/vigil/core/model/VigilResponse.class",
                    "dev/vigil/core/model/RegistrationStatus.class", "dev/vigil/core/model/DeviceRegistration.class",
                    "dev/vigil/core/PropertiesBuilder.class", "dev/vigil/core/sync/SyncReport.class",
                    "dev/vigil/core/registration/RegistrationListener.class"}) {
                expect(classes.contains(publicApi), "classes.jar holds " + publicApi);
            }
            // The fake for apps' own tests ships (dev.vigil.testing.FakeVigil); the library's test helpers do not.
            expect(classes.contains("dev/vigil/testing/FakeVigil.class"), "classes.jar holds dev/vigil/testing/FakeVigil.class");
            expect(classes.stream().noneMatch(c -> c.startsWith("dev/vigil/testing/") && !c.endsWith("/") && !c.startsWith("dev/vigil/testing/FakeVigil")),
                    "classes.jar holds no test code");
            // The offline verdict's evidence table, copied from the server's file at build time.
            expect(classes.contains("dev/vigil/android-evidence.json"), "classes.jar holds dev/vigil/android-evidence.json");
        }
    }

    static void checkPom(String pom) {
        expect(pom.contains("<packaging>aar</packaging>"), "POM packaging is aar");
        expect(!pom.contains("<parent>"), "POM stands alone (no parent)");
        expect(pom.contains("<name>Apache-2.0</name>"), "POM declares the Apache-2.0 license");
        expect(pom.contains("<scm") && pom.contains("<connection>scm:git:") && pom.contains("<description>"), "POM has scm and description");
        expect(pom.contains("<artifactId>kotlin-stdlib</artifactId>"), "POM declares kotlin-stdlib");
        expect(pom.contains("<artifactId>kotlinx-coroutines-core-jvm</artifactId>"), "POM declares kotlinx-coroutines");
        expect(!pom.contains("<scope>test</scope>") && !pom.contains("robolectric</artifactId>"),
                "POM leaves test-only dependencies out");
        expect(!pom.contains("SNAPSHOT"), "POM is a release");
    }

    static String text(ZipFile zip, String name) throws Exception {
        try (InputStream in = zip.getInputStream(zip.getEntry(name))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    static void expect(boolean ok, String what) {
        if (!ok) problems.add(what);
    }
}
