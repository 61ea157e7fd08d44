package androidx.test.platform.app;

import android.app.Instrumentation;
import android.os.Bundle;

/** Holds the instrumentation Robolectric's AndroidTestEnvironment registers for each test. */
public final class InstrumentationRegistry {
  private static volatile Instrumentation instrumentation;
  private static volatile Bundle arguments = new Bundle();

  private InstrumentationRegistry() {}

  public static void registerInstance(Instrumentation instrumentation, Bundle arguments) {
    InstrumentationRegistry.instrumentation = instrumentation;
    InstrumentationRegistry.arguments = arguments == null ? new Bundle() : new Bundle(arguments);
  }

  public static Instrumentation getInstrumentation() {
    if (instrumentation == null) {
      throw new IllegalStateException("No instrumentation registered: is the test running under Robolectric?");
    }
    return instrumentation;
  }

  public static Bundle getArguments() {
    return new Bundle(arguments);
  }
}
