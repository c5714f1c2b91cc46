package io.github.rdmacounters.core;

import java.time.Duration;

/**
 * A hardware read that has not returned within its deadline: what it was reading when the
 * deadline passed (a file, or a call such as {@code ibv_read_counters}) and how long it
 * had been running. Its values are not known (NaN), never an earlier read's.
 *
 * @param what the file or call the read was in, e.g.
 * {@code mlx5_0/ports/1/counters/port_rcv_data}
 * @param running how long the read had been running when this was seen
 * @param stalls how many reads of the same source have missed their deadline so far
 * @since 0.1.0
 */
public record ReadStall(String what, Duration running, long stalls) {

	/**
	 * Describe the stall in a few words.
	 * @return e.g.
	 * {@code "mlx5_0/ports/1/counters/port_rcv_data: no answer after 512 ms"}
	 */
	public String describe() {
		return this.what + ": no answer after " + this.running.toMillis() + " ms";
	}

}
