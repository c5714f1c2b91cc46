package io.github.rdmacounters.netlink;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.RdmaClosedException;

/**
 * Opens an {@link NldevClient} on first use, again after opening failed, and closes it
 * once.
 *
 * @author rdma-counters
 */
final class NldevOpener implements AutoCloseable {

	private final Supplier<NldevClient> opener;

	private final String what;

	private @Nullable NldevClient client;

	private boolean closed;

	NldevOpener(Supplier<NldevClient> opener, String what) {
		this.opener = opener;
		this.what = what;
	}

	synchronized NldevClient get() {
		if (this.closed) {
			throw new RdmaClosedException(this.what);
		}
		NldevClient current = this.client;
		if (current == null) {
			current = this.opener.get();
			this.client = current;
		}
		return current;
	}

	@Override
	public void close() {
		NldevClient current;
		synchronized (this) {
			this.closed = true;
			current = this.client;
			this.client = null;
		}
		if (current != null) {
			current.close();
		}
	}

}
