package io.github.rdmacounters.core;

/**
 * How counters are read ({@code ibv_read_counters} flags).
 *
 * @since 0.1.0
 */
public enum ReadMode {

	/** Ask the device for current values. */
	FRESH(0),

	/**
	 * {@code IBV_READ_COUNTERS_ATTR_PREFER_CACHED}; mlx5 queries the firmware either way.
	 */
	PREFER_CACHED(1);

	private final int flags;

	ReadMode(int flags) {
		this.flags = flags;
	}

	public int flags() {
		return this.flags;
	}

}
