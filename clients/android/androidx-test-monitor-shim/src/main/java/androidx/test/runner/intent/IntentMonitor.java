package androidx.test.runner.intent;

/** Marker for the intent monitor Robolectric registers. */
public interface IntentMonitor {}
