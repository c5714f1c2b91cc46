package io.github.rdmacounters.sysfs;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.ManagedDeviceFactory;

/**
 * A {@link SysfsTree} on the file system, by default {@code /sys/class/infiniband}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class FileSystemSysfsTree implements SysfsTree {

	/**
	 * Where the kernel publishes RDMA devices:
	 * {@link ManagedDeviceFactory#DEFAULT_SYSFS_ROOT}.
	 */
	public static final Path DEFAULT_ROOT = Path.of(ManagedDeviceFactory.DEFAULT_SYSFS_ROOT);

	private static final ThreadLocal<ByteBuffer> BUFFER = ThreadLocal.withInitial(() -> ByteBuffer.allocate(256));

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
	 * find the end of the file is saved.
	 * <p>
	 * A {@link FileChannel} costs openat, read and close per file; a
	 * {@code FileInputStream} adds an fstat to refuse directories (a channel on a
	 * directory fails its read with {@code EISDIR} instead). A channel is closed by an
	 * interrupt of the reading thread, so the interrupt flag is cleared for the read and
	 * set again after it, and a read interrupted midway is made again: an interrupted
	 * scrape does not turn the rest of the snapshot into unreadable files.
	 */
	@Override
	public String read(String path) throws IOException {
		ByteBuffer buffer = readBytes(path);
		return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
	}

	/**
	 * Read a counter file as {@link #read(String)} reads any file and parse its bytes,
	 * without making a string of them.
	 */
	@Override
	public @Nullable Long readCounter(String path) throws IOException {
		ByteBuffer buffer = readBytes(path);
		return SysfsValues.parseCounter(buffer.array(), buffer.position());
	}

	/**
	 * Read a file into this thread's buffer; the content is from 0 to its position.
	 */
	private ByteBuffer readBytes(String path) throws IOException {
		Path file = resolve(path);
		boolean interrupted = Thread.interrupted();
		try {
			while (true) {
				try {
					return readOnce(file);
				}
				catch (ClosedByInterruptException ex) {
					interrupted = true;
					Thread.interrupted();
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static ByteBuffer readOnce(Path file) throws IOException {
		ByteBuffer buffer = BUFFER.get();
		buffer.clear();
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			while (true) {
				int offered = buffer.remaining();
				int read = channel.read(buffer);
				if (read <= 0 || read < offered) {
					break;
				}
				ByteBuffer larger = ByteBuffer.allocate(buffer.capacity() * 2);
				buffer.flip();
				larger.put(buffer);
				buffer = larger;
				BUFFER.set(buffer);
			}
		}
		return buffer;
	}

	/**
	 * Return the directory's file key (device and inode number) with its modification
	 * time, from one {@code stat}: a directory made anew has a new inode on sysfs (kernfs
	 * numbers its nodes cyclically, {@code kernfs_new_node}), and a new modification time
	 * on file systems that reuse inode numbers (a test tree on ext4).
	 */
	@Override
	public @Nullable Object directoryKey(String path) {
		try {
			BasicFileAttributes attributes = Files.readAttributes(resolve(path), BasicFileAttributes.class);
			Object fileKey = attributes.fileKey();
			return (fileKey != null && attributes.isDirectory())
					? new DirectoryKey(fileKey, attributes.lastModifiedTime()) : null;
		}
		catch (IOException ex) {
			return null;
		}
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

	private record DirectoryKey(Object fileKey, FileTime modified) {

	}

}
