package io.github.rdmacounters.simulated;

/**
 * A simulated native object without behaviour of its own (protection domain, completion
 * queue, queue pair), tracked by identity by a {@link VerbHook}.
 */
final class NativeResource {

	private final String description;

	NativeResource(String description) {
		this.description = description;
	}

	@Override
	public String toString() {
		return this.description;
	}

}
