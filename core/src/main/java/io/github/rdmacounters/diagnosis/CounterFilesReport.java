package io.github.rdmacounters.diagnosis;

import java.util.List;

/**
 * How a port's sysfs counter files read ({@code counters/}, {@code counters_ext/},
 * {@code hw_counters/}).
 *
 * @param readable how many read as a number
 * @param invalidArgument the files whose read failed with {@code EINVAL}, relative to the
 * port directory
 * @param timedOut the files whose read did not return in time (or were skipped after one
 * in the same directory did not)
 * @param otherErrors the other unreadable files, each as {@code file: reason}
 * @since 0.1.0
 */
public record CounterFilesReport(int readable, List<String> invalidArgument, List<String> timedOut,
		List<String> otherErrors) {

	public CounterFilesReport {
		invalidArgument = List.copyOf(invalidArgument);
		timedOut = List.copyOf(timedOut);
		otherErrors = List.copyOf(otherErrors);
	}

	int unreadable() {
		return this.invalidArgument.size() + this.timedOut.size() + this.otherErrors.size();
	}

}
