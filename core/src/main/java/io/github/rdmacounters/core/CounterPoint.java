package io.github.rdmacounters.core;

/**
 * A counter point attached to a counters handle.
 *
 * @param type what it counts
 * @param index where its value appears in a read
 * @since 0.1.0
 */
public record CounterPoint(CounterType type, int index) {

	public CounterPoint {
		if (index < 0) {
			throw new IllegalArgumentException("Counter index must be 0 or more, but was " + index);
		}
	}

}
