package io.github.rdmacounters.sysfs;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.management.UnixOperatingSystemMXBean;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.ManagedDeviceFactory;

/**
 * A {@link SysfsTree} on the file system, by default {@code /sys/class/infiniband}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public final class FileSystemSysfsTree implements SysfsTree, AutoCloseable {

	/**
	 * Where the kernel publishes RDMA devices:
	 * {@link ManagedDeviceFactory#DEFAULT_SYSFS_ROOT}.
	 */
	public static final Path DEFAULT_ROOT = Path.of(ManagedDeviceFactory.DEFAULT_SYSFS_ROOT);

	private static final ThreadLocal<ByteBuffer> BUFFER = ThreadLocal.withInitial(() -> ByteBuffer.allocate(256));

	private static final String SYSFS = "sysfs";

	/**
	 * At most this many files are kept open by one tree, and at most a quarter of the
	 * file descriptors the process may open: a host of 16 dual-port devices reading every
	 * counter keeps about 1,700.
	 */
	private static final int MAX_KEPT_FILES = 4096;

	private final Path root;

	/**
	 * Whether files are kept open; {@code null} until the root's file system is known.
	 */
	private volatile @Nullable Boolean keepFilesOpen;

	private final int maxKeptFiles;

	/** The files kept open, by path; changed under its own lock. */
	private final Map<String, FileChannel> channels = new ConcurrentHashMap<>();

	/** The files read once, kept open from their second read. */
	private final Set<String> seen = ConcurrentHashMap.newKeySet();

	private boolean closed;

	/**
	 * Create a tree over a root directory; on sysfs files read again are kept open (see
	 * {@link #keepsFilesOpen()}).
	 * @param root the directory holding one directory per device
	 */
	public FileSystemSysfsTree(Path root) {
		this(root, null);
	}

	/**
	 * Create a tree that keeps files open or not, whatever the file system: for trees
	 * that no file is deleted from while they are read (a benchmark's).
	 * @param root the directory holding one directory per device
	 * @param keepFilesOpen whether files read again are kept open; {@code null} to keep
	 * them on sysfs only
	 */
	FileSystemSysfsTree(Path root, @Nullable Boolean keepFilesOpen) {
		this.root = root;
		this.keepFilesOpen = keepFilesOpen;
		this.maxKeptFiles = Boolean.FALSE.equals(keepFilesOpen) ? 0 : maxKeptFiles();
	}

	private static int maxKeptFiles() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix) {
			return (int) Math.min(MAX_KEPT_FILES, unix.getMaxFileDescriptorCount() / 4);
		}
		return 0;
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
	 * On sysfs a file read before is kept open and read again at offset 0 (see
	 * {@link #keepsFilesOpen()}); other files cost openat, read and close. A
	 * {@code FileInputStream} would add an fstat to refuse directories (a channel on a
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
		boolean interrupted = Thread.interrupted();
		try {
			FileChannel kept = this.channels.get(path);
			if (kept != null) {
				try {
					return readFrom(kept);
				}
				catch (IOException ex) {
					// the file is gone (sysfs fails the read of a removed attribute with
					// ENODEV), its read handler failed, the channel was closed by close()
					// or by an interrupt: forget it and open the file again
					interrupted |= Thread.interrupted();
					forget(path, kept);
				}
			}
			while (true) {
				try {
					return readOnce(path);
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

	/**
	 * Open a file and read it; keep it open when this tree keeps files, the file was read
	 * before (a source made for one look, as at startup, keeps nothing) and the limit of
	 * kept files is not reached.
	 */
	private ByteBuffer readOnce(String path) throws IOException {
		FileChannel channel = FileChannel.open(resolve(path), StandardOpenOption.READ);
		boolean keep = false;
		try {
			ByteBuffer buffer = readFrom(channel);
			keep = keepsFilesOpen() && !this.seen.add(path) && keep(path, channel);
			return buffer;
		}
		finally {
			if (!keep) {
				channel.close();
			}
		}
	}

	private boolean keep(String path, FileChannel channel) {
		synchronized (this.channels) {
			if (this.closed || this.channels.size() >= this.maxKeptFiles || this.channels.containsKey(path)) {
				return false;
			}
			this.channels.put(path, channel);
			return true;
		}
	}

	private void forget(String path, FileChannel channel) {
		synchronized (this.channels) {
			this.channels.remove(path, channel);
		}
		closeQuietly(channel);
	}

	/**
	 * Read a channel from offset 0 into this thread's buffer: a positional read at 0
	 * makes sysfs call the attribute's {@code show} method again ({@code seq_read_iter}
	 * in {@code fs/seq_file.c} restarts the sequence at offset 0), so a kept file gives
	 * the value of now.
	 */
	private static ByteBuffer readFrom(FileChannel channel) throws IOException {
		ByteBuffer buffer = BUFFER.get();
		buffer.clear();
		while (true) {
			int offered = buffer.remaining();
			int read = channel.read(buffer, buffer.position());
			if (read <= 0 || read < offered) {
				return buffer;
			}
			ByteBuffer larger = ByteBuffer.allocate(buffer.capacity() * 2);
			buffer.flip();
			larger.put(buffer);
			buffer = larger;
			BUFFER.set(buffer);
		}
	}

	/**
	 * Return whether files read more than once are kept open and read again at offset 0
	 * instead of being opened for every read, one openat and close saved per file and
	 * read: true on sysfs, whose attributes are removed only with their kobject and then
	 * fail the read of an open file ({@code kernfs_fop_read_iter} returns {@code ENODEV}
	 * once the node is deactivated), so a kept file never serves a stale value. On other
	 * file systems (the trees of tests) a deleted file would stay readable through an
	 * open channel, so every read opens the file.
	 * @return whether files are kept open
	 */
	public boolean keepsFilesOpen() {
		Boolean keep = this.keepFilesOpen;
		if (keep == null) {
			try {
				keep = SYSFS.equals(Files.getFileStore(this.root).type());
			}
			catch (IOException | RuntimeException ex) {
				// no root yet (no RDMA stack loaded): ask again at the next read
				return false;
			}
			this.keepFilesOpen = keep;
		}
		return keep;
	}

	/**
	 * Close the files kept open under a directory: its device or port is gone, or was
	 * registered again, so its files are opened anew when read.
	 */
	@Override
	public void release(String path) {
		String prefix = path.endsWith("/") ? path : path + "/";
		List<FileChannel> released = new ArrayList<>();
		synchronized (this.channels) {
			this.channels.entrySet().removeIf((entry) -> {
				if (entry.getKey().startsWith(prefix)) {
					released.add(entry.getValue());
					return true;
				}
				return false;
			});
			this.seen.removeIf((file) -> file.startsWith(prefix));
		}
		released.forEach(FileSystemSysfsTree::closeQuietly);
	}

	/**
	 * Return how many files are kept open.
	 * @return the number of open files
	 */
	int keptFiles() {
		return this.channels.size();
	}

	/**
	 * Close the files kept open; reads after this open every file.
	 */
	@Override
	public void close() {
		List<FileChannel> released;
		synchronized (this.channels) {
			this.closed = true;
			released = new ArrayList<>(this.channels.values());
			this.channels.clear();
			this.seen.clear();
		}
		released.forEach(FileSystemSysfsTree::closeQuietly);
	}

	private static void closeQuietly(FileChannel channel) {
		try {
			channel.close();
		}
		catch (IOException ex) {
			// a read-only channel: nothing was written that could be lost
		}
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
