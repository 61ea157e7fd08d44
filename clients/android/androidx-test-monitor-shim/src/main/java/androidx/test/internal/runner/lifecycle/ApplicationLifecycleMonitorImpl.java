package androidx.test.internal.runner.lifecycle;

import android.app.Application;
import androidx.test.runner.lifecycle.ApplicationLifecycleMonitor;
import androidx.test.runner.lifecycle.ApplicationStage;

/** Receives application lifecycle signals from Robolectric; nothing in our tests listens to them. */
public final class ApplicationLifecycleMonitorImpl implements ApplicationLifecycleMonitor {
  public void signalLifecycleChange(Application application, ApplicationStage stage) {}
}
