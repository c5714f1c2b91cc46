package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

/**
 * A {@link SysfsTree} on the file system, by default {@code /sys/class/infiniband}.
 *
 * @author rdma-counters
 */
public final class FileSystemSysfsTree implements SysfsTree {

	/**
	 * Where the kernel publishes RDMA devices.
	 */
	public static final Path DEFAULT_ROOT = Paths.get("/sys/class/infiniband");

	private final Path root;

	/**
	 * Create a tree over a root directory.
	 * @param root the directory holding one directory per device
	 */
	public FileSystemSysfsTree(Path root) {
		this.root = root;
	}

	/**
	 * Return the root directory.
	 * @return the root
	 */
	public Path root() {
		return this.root;
	}

	@Override
	public List<String> list(String path) throws IOException {
		try (Stream<Path> entries = Files.list(resolve(path))) {
			return entries.map((entry) -> entry.getFileName().toString()).sorted().toList();
		}
	}

	@Override
	public String read(String path) throws IOException {
		return new String(Files.readAllBytes(resolve(path)), StandardCharsets.UTF_8);
	}

	private Path resolve(String path) {
		return path.isEmpty() ? this.root : this.root.resolve(path);
	}

	@Override
	public String describe() {
		return this.root.toString();
	}

	@Override
	public String toString() {
		return "FileSystemSysfsTree " + this.root;
	}

}
