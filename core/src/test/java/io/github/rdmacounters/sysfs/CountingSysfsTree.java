package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * A {@link SysfsTree} that counts the listings of each directory and the reads of each
 * file of the tree it reads through: a source lists {@code <device>/ports} once per
 * snapshot it reads.
 *
 * @author rdma-counters
 */
public final class CountingSysfsTree implements SysfsTree {

	private final SysfsTree tree;

	private final Map<String, AtomicLong> listings = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> reads = new ConcurrentHashMap<>();

	/**
	 * Count the listings of a tree.
	 * @param tree the tree read through
	 */
	public CountingSysfsTree(SysfsTree tree) {
		this.tree = tree;
	}

	/**
	 * Return how often a directory was listed.
	 * @param path the directory, relative to the root
	 * @return the number of listings
	 */
	public long listings(String path) {
		AtomicLong count = this.listings.get(path);
		return (count != null) ? count.get() : 0;
	}

	@Override
	public List<String> list(String path) throws IOException {
		this.listings.computeIfAbsent(path, (key) -> new AtomicLong()).incrementAndGet();
		return this.tree.list(path);
	}

	/**
	 * Return the files read so far, each with how often it was read.
	 * @return the read counts by path, relative to the root
	 */
	public Map<String, Long> reads() {
		Map<String, Long> reads = new java.util.TreeMap<>();
		this.reads.forEach((path, count) -> reads.put(path, count.get()));
		return reads;
	}

	@Override
	public String read(String path) throws IOException {
		this.reads.computeIfAbsent(path, (key) -> new AtomicLong()).incrementAndGet();
		return this.tree.read(path);
	}

	@Override
	public @Nullable String resolvedName(String path) {
		return this.tree.resolvedName(path);
	}

	@Override
	public @Nullable Object directoryKey(String path) {
		return this.tree.directoryKey(path);
	}

	@Override
	public String describe() {
		return this.tree.describe();
	}

}
