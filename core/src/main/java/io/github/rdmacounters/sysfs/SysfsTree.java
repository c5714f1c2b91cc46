package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The part of a file tree the port counters reader needs: list a directory, read a small
 * file. Paths are relative to the tree root (the equivalent of
 * {@code /sys/class/infiniband}) and use {@code /} as separator, e.g.
 * {@code mlx5_0/ports/1/counters/port_rcv_data}.
 * <p>
 * {@link FileSystemSysfsTree} reads the real file system; the simulated device serves its
 * own state through the same interface, so one parser serves both. Implementations are
 * thread-safe.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public interface SysfsTree {

	/**
	 * List the names of the entries of a directory.
	 * @param path the directory, relative to the root; the empty string is the root
	 * @return the entry names, sorted
	 * @throws IOException if the directory does not exist or cannot be listed
	 * ({@link java.nio.file.NoSuchFileException} when it does not exist)
	 */
	List<String> list(String path) throws IOException;

	/**
	 * Read a file as text.
	 * @param path the file, relative to the root
	 * @return the content, untrimmed
	 * @throws IOException if the file cannot be read: missing, a directory, not readable,
	 * or the driver's read handler failed (e.g. {@code EINVAL}, {@code EOPNOTSUPP})
	 */
	String read(String path) throws IOException;

	/**
	 * Read a counter file: an unsigned decimal number, as
	 * {@link SysfsValues#parseCounter(String)} parses the trimmed content.
	 * @param path the file, relative to the root
	 * @return the value, or {@code null} if the content is not a counter
	 * @throws IOException if the file cannot be read, as {@link #read(String)}
	 */
	default @Nullable Long readCounter(String path) throws IOException {
		return SysfsValues.parseCounter(read(path).trim());
	}

	/**
	 * Return the file name of what a path resolves to, following symbolic links: for
	 * {@code mlx5_0/device}, a link to the PCI function's directory, the PCI address
	 * {@code 0000:08:00.0}. Trees without links (the simulated device's) return
	 * {@code null}.
	 * @param path the path, relative to the root
	 * @return the name of the resolved file, or {@code null} if the path does not exist
	 * or the tree has no links
	 */
	default @Nullable String resolvedName(String path) {
		return null;
	}

	/**
	 * Return a key that stays equal while a directory is the same directory and changes
	 * when it is made anew or entries are added to or removed from it. For a device
	 * directory this tells a new registration of the device (a driver reload or a
	 * firmware reset unregisters and registers it again) from the same one: the kernel
	 * creates the port directories and their counter files once, when the device is
	 * registered ({@code ib_setup_port_attrs} and {@code setup_port} in
	 * {@code drivers/infiniband/core/sysfs.c}), and removes them only when it is
	 * unregistered, so a reader may keep the listings of a device while its key is the
	 * same. Optional counters that {@code rdma statistic set} enables later are not in
	 * sysfs: the {@code hw_counters} group leaves out the counters flagged
	 * {@code IB_STAT_FLAG_OPTIONAL}, which netlink alone reports. Trees that cannot tell
	 * return {@code null}, and are listed on every read.
	 * @param path the directory, relative to the root
	 * @return the key, or {@code null} if the tree cannot tell or the directory does not
	 * exist
	 * @since 0.1.0
	 */
	default @Nullable Object directoryKey(String path) {
		return null;
	}

	/**
	 * Tell the tree that the files under a directory are not read any more or will be
	 * found anew (their device or port is gone, or was registered again): a tree that
	 * keeps files open closes them.
	 * @param path the directory, relative to the root, e.g. {@code mlx5_0}
	 */
	default void release(String path) {
	}

	/**
	 * Describe where the tree comes from, for messages.
	 * @return e.g. the root directory
	 */
	String describe();

}
