package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.sysfs.SysfsTree;

/**
 * A {@link SysfsTree} that reads each file on a daemon thread with a deadline and
 * remembers why each unreadable file failed. A read that does not return in time (a
 * firmware command that hangs on a restricted PF) is abandoned on its thread, and the
 * other files of its directory are then reported timed out without being read.
 */
final class TimedSysfsTree implements SysfsTree, AutoCloseable {

	/** Why a read failed: {@code EINVAL}, {@code timed out}, or another reason. */
	static final String INVALID_ARGUMENT = "EINVAL";

	static final String TIMED_OUT = "timed out";

	private static final int[] KNOWN_ERRNOS = { Errno.EINVAL, Errno.EOPNOTSUPP, Errno.EIO, Errno.EACCES, Errno.EPERM,
			Errno.ENODEV, Errno.ENXIO, Errno.EBUSY, Errno.EAGAIN };

	private final SysfsTree tree;

	private final Duration timeout;

	private final ExecutorService executor = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "rdma-diagnosis-sysfs");
		thread.setDaemon(true);
		return thread;
	});

	private final Map<String, String> failures = new ConcurrentHashMap<>();

	private final Set<String> hungDirectories = ConcurrentHashMap.newKeySet();

	TimedSysfsTree(SysfsTree tree, Duration timeout) {
		this.tree = tree;
		this.timeout = timeout;
	}

	/**
	 * Return why a file failed to read.
	 * @param path the path as read
	 * @return {@link #INVALID_ARGUMENT}, {@link #TIMED_OUT}, another reason, or
	 * {@code null} if it read (or held something else than a number)
	 */
	@Nullable String failure(String path) {
		return this.failures.get(path);
	}

	@Override
	public List<String> list(String path) throws IOException {
		return this.tree.list(path);
	}

	@Override
	public String read(String path) throws IOException {
		return timed(path, () -> this.tree.read(path));
	}

	@Override
	public @Nullable Long readCounter(String path) throws IOException {
		return timed(path, () -> this.tree.readCounter(path));
	}

	@Override
	public @Nullable String resolvedName(String path) {
		return this.tree.resolvedName(path);
	}

	@Override
	public String describe() {
		return this.tree.describe();
	}

	private <T> T timed(String path, Callable<T> read) throws IOException {
		String directory = directory(path);
		if (this.hungDirectories.contains(directory)) {
			this.failures.put(path, TIMED_OUT);
			throw new IOException(path + ": not read, an earlier read in " + directory + " timed out");
		}
		Future<T> future = this.executor.submit(read);
		try {
			return future.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			future.cancel(true);
			this.hungDirectories.add(directory);
			this.failures.put(path, TIMED_OUT);
			throw new IOException(path + ": the read did not return within " + this.timeout.toMillis() + " ms");
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof IOException io) {
				if (!(io instanceof NoSuchFileException)) {
					this.failures.put(path, classify(io));
				}
				throw io;
			}
			throw new IOException(path + ": " + cause, cause);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			future.cancel(true);
			throw new IOException(path + ": interrupted", ex);
		}
	}

	// Java reports a failed read(2) with strerror's message
	static String classify(IOException ex) {
		if (ex instanceof AccessDeniedException) {
			return Errno.name(Errno.EACCES);
		}
		String message = String.valueOf(ex.getMessage());
		for (int errno : KNOWN_ERRNOS) {
			if (message.contains(Errno.message(errno))) {
				return Errno.name(errno);
			}
		}
		return message;
	}

	private static String directory(String path) {
		int slash = path.lastIndexOf('/');
		return (slash > 0) ? path.substring(0, slash) : "";
	}

	@Override
	public void close() {
		// a thread stuck in a read stays until the read returns; it is a daemon
		this.executor.shutdownNow();
	}

}
