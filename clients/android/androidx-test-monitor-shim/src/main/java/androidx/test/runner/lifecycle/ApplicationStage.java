package androidx.test.runner.lifecycle;

/** Application lifecycle stages signalled by Robolectric while it creates the Application. */
public enum ApplicationStage {
  PRE_ON_CREATE,
  CREATED
}
