package io.github.rdmacounters.observation;

import java.util.ArrayList;
import java.util.List;

/**
 * The selected observations active on one group of counters (a counter set, a port):
 * another one overlapped an interval when one was active as it entered, or one entered
 * while it was active. Counters count everything that matches them, so each of two
 * overlapping observations sees the other's traffic too.
 *
 * @author rdma-counters
 */
final class Overlaps {

	private int active;

	/**
	 * Return one record of overlaps for each of a handler's groups of counters.
	 * @param groups how many groups
	 * @return the records, in the order of the groups
	 */
	static List<Overlaps> of(int groups) {
		List<Overlaps> overlaps = new ArrayList<>(groups);
		for (int i = 0; i < groups; i++) {
			overlaps.add(new Overlaps());
		}
		return List.copyOf(overlaps);
	}

	private long entries;

	synchronized void enter(Interval interval) {
		interval.overlapped = this.active > 0;
		this.active++;
		interval.entriesAtEnter = ++this.entries;
	}

	synchronized void leave(Interval interval) {
		if (this.entries != interval.entriesAtEnter) {
			interval.overlapped = true;
		}
		this.active--;
	}

	/**
	 * One observation on one group of counters: whether another overlapped it. A handler
	 * extends it with the values read at the start.
	 */
	static class Interval {

		volatile boolean overlapped;

		long entriesAtEnter;

	}

}
