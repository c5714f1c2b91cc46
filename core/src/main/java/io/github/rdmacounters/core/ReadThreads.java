package io.github.rdmacounters.core;

import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The daemon threads that run the reads of every {@link ReadCache} with a deadline. A
 * cache runs one read at a time, so there are never more threads than caches with a read
 * in flight; an idle thread ends after 30 seconds. Daemon threads: a read stuck in the
 * kernel never holds the JVM open, and no context close waits for it. Internal.
 */
final class ReadThreads {

	private static final AtomicInteger COUNT = new AtomicInteger();

	private static final ThreadPoolExecutor EXECUTOR = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30,
			TimeUnit.SECONDS, new SynchronousQueue<>(), (task) -> {
				Thread thread = new Thread(task, "rdma-read-" + COUNT.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});

	private ReadThreads() {
	}

	static void execute(Runnable read) {
		EXECUTOR.execute(read);
	}

	/**
	 * Return how many reader threads are alive now, idle or reading.
	 * @return the number of threads
	 */
	static int alive() {
		return EXECUTOR.getPoolSize();
	}

}
