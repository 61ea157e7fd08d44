package androidx.test.runner.lifecycle;

/** Activity lifecycle stages, named as Robolectric's RoboMonitoringInstrumentation expects. */
public enum Stage {
  PRE_ON_CREATE,
  CREATED,
  STARTED,
  RESUMED,
  PAUSED,
  STOPPED,
  RESTARTED,
  DESTROYED
}
