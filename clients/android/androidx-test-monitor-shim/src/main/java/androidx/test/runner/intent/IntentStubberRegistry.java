package androidx.test.runner.intent;

/** No stubber is ever loaded: started activities behave as they would without Espresso-Intents. */
public final class IntentStubberRegistry {
  private static volatile IntentStubber instance;

  private IntentStubberRegistry() {}

  public static void load(IntentStubber stubber) {
    instance = stubber;
  }

  public static boolean isLoaded() {
    return instance != null;
  }

  public static IntentStubber getInstance() {
    return instance;
  }
}
