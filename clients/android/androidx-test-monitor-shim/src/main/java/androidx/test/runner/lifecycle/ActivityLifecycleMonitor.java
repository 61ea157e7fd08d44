package androidx.test.runner.lifecycle;

/** Marker for the activity lifecycle monitor; our tests never observe activities. */
public interface ActivityLifecycleMonitor {}
