package io.github.rdmacounters.sysfs;

import java.nio.file.Path;

/**
 * Trees for the benchmarks, whose sysfs copies live on an ordinary file system: read the
 * way {@link FileSystemSysfsTree} reads the real sysfs, or the way it reads other trees.
 *
 * @author rdma-counters
 */
public final class BenchmarkSysfsTrees {

	private BenchmarkSysfsTrees() {
	}

	/**
	 * Return a tree that keeps the files it reads again open, as on sysfs (nothing is
	 * deleted from a benchmark's tree while it is read).
	 * @param root the directory holding the device directories
	 * @param keepFilesOpen whether to keep files open ({@code false}: open every file at
	 * every read)
	 * @return the tree
	 */
	public static FileSystemSysfsTree tree(Path root, boolean keepFilesOpen) {
		return new FileSystemSysfsTree(root, keepFilesOpen);
	}

}
