package io.github.rdmacounters.diagnosis;

import java.nio.file.Path;

import io.github.rdmacounters.sysfs.FileSystemSysfsTree;

/**
 * Where the diagnosis reads the host: tests point these at trees of their own.
 *
 * @param sysfsRoot the {@code /sys/class/infiniband} equivalent
 * @param sys the {@code /sys} equivalent, for {@code module/ib_core/parameters}
 * @param proc the {@code /proc} equivalent
 * @param dev the {@code /dev} equivalent
 * @since 0.1.0
 */
public record HostPaths(Path sysfsRoot, Path sys, Path proc, Path dev) {

	/**
	 * Return the host's own paths.
	 * @return {@code /sys/class/infiniband}, {@code /sys}, {@code /proc}, {@code /dev}
	 */
	public static HostPaths system() {
		return new HostPaths(FileSystemSysfsTree.DEFAULT_ROOT, Path.of("/sys"), Path.of("/proc"), Path.of("/dev"));
	}

	/**
	 * Return these paths with another {@code /sys/class/infiniband}.
	 * @param root the directory holding one directory per device
	 * @return the paths
	 */
	public HostPaths withSysfsRoot(Path root) {
		return new HostPaths(root, this.sys, this.proc, this.dev);
	}

}
