package io.github.rdmacounters.sysfs;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

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

	private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[256]);

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

	/**
	 * List a directory with {@link File#list()}, which returns the names without making a
	 * {@link Path} of each entry: a host snapshot lists some 70 directories.
	 */
	@Override
	public List<String> list(String path) throws IOException {
		File directory = resolve(path).toFile();
		String[] names = directory.list();
		if (names == null) {
			if (!directory.exists()) {
				throw new NoSuchFileException(directory.getPath());
			}
			throw new IOException("Cannot list " + directory.getPath() + ": not a directory or not readable");
		}
		Arrays.sort(names);
		return Arrays.asList(names);
	}

	/**
	 * Read a file with one reused buffer per thread: sysfs reports 4096 bytes as the size
	 * of every attribute, so sizing a buffer by the file size would allocate 4 KiB per
	 * counter. The file is read until a read returns less than it was offered: a sysfs
	 * attribute is produced whole by the first read ({@code kernfs_fop_read_iter} fills
	 * the buffer from the attribute's {@code show} method), so the read that would only
	 * find the end of the file is saved. A {@link FileInputStream}, unlike a
	 * {@code FileChannel}, is not closed by an interrupt of the reading thread, so an
	 * interrupted scrape does not turn the rest of the snapshot into unreadable files.
	 */
	@Override
	public String read(String path) throws IOException {
		byte[] buffer = BUFFER.get();
		int length = 0;
		try (InputStream in = new FileInputStream(resolve(path).toFile())) {
			while (true) {
				int offered = buffer.length - length;
				int read = in.read(buffer, length, offered);
				if (read <= 0) {
					break;
				}
				length += read;
				if (read < offered) {
					break;
				}
				buffer = Arrays.copyOf(buffer, buffer.length * 2);
				BUFFER.set(buffer);
			}
		}
		return new String(buffer, 0, length, StandardCharsets.UTF_8);
	}

	@Override
	public @Nullable String resolvedName(String path) {
		try {
			Path fileName = resolve(path).toRealPath().getFileName();
			return (fileName != null) ? fileName.toString() : null;
		}
		catch (IOException ex) {
			return null;
		}
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
