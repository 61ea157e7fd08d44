# Sourced by the container scripts: makes podman run containers on this kind of machine, through a containers.conf
# of its own (CONTAINERS_CONF) rather than by editing the system's. Two things stop podman's defaults here:
# - with cgroups v1 and v2 mounted side by side ("hybrid"), crun 1.8 refuses every container ("cgroups in hybrid
#   mode not supported, drop all controllers from cgroupv2"); runc handles that layout;
# - podman gives root containers nofile=1048576 and nproc=4194304, and a root without CAP_SYS_RESOURCE (a
#   container or VM sandbox) cannot raise its limits that far ("setrlimit RLIMIT_NOFILE: Operation not permitted").
#   Limits at or under this shell's own are always allowed (32768 processes is as high as was seen to work here).
if [ -z "${VIGIL_PODMAN_CONF:-}" ]; then
  VIGIL_PODMAN_CONF=$(mktemp /tmp/vigil-containers.XXXXXX.conf)
  nofile=$(ulimit -Hn)
  nproc=$(ulimit -Hu)
  [ "$nofile" = unlimited ] || [ "$nofile" -gt 1048576 ] && nofile=1048576
  [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
  {
    echo '[containers]'
    echo "default_ulimits = [\"nofile=$nofile:$nofile\", \"nproc=$nproc:$nproc\"]"
    if [ -d /sys/fs/cgroup/unified ] && command -v runc >/dev/null; then
      echo '[engine]'
      echo 'runtime = "runc"'
    fi
  } >"$VIGIL_PODMAN_CONF"
  # Image builds run their RUN steps in the host's network namespace. By default each step gets a bridge and a veth
  # on the host, and when the host's interfaces change Chromium fails every request in flight
  # (net::ERR_NETWORK_CHANGED, on loopback too), in the suites that drive it beside this one.
  VIGIL_PODMAN_BUILD_CONF=${VIGIL_PODMAN_CONF%.conf}.build.conf
  sed 's/^\[containers\]$/[containers]\nnetns = "host"/' "$VIGIL_PODMAN_CONF" >"$VIGIL_PODMAN_BUILD_CONF"
  export VIGIL_PODMAN_CONF VIGIL_PODMAN_BUILD_CONF CONTAINERS_CONF=$VIGIL_PODMAN_CONF
fi
# building COMMAND…: runs a build with the build configuration above.
building() { CONTAINERS_CONF=${VIGIL_PODMAN_BUILD_CONF:?no build configuration: source podman-env.sh without VIGIL_PODMAN_CONF set} "$@"; }
