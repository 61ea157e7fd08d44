package androidx.test.runner.lifecycle;

/** Marker for the application lifecycle monitor. */
public interface ApplicationLifecycleMonitor {}
