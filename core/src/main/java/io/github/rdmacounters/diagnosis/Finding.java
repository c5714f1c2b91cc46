package io.github.rdmacounters.diagnosis;

/**
 * One thing the diagnosis found, with what it means for counting and what to do.
 *
 * @param severity {@code problem} (something will not count), {@code warning} (something
 * counts less than it could) or {@code info}
 * @param subject what it is about: {@code host}, a device, or {@code device port N}
 * @param what what was found
 * @param meaning what it means for flow or port counters
 * @param action what to do, or an empty string when nothing is to be done
 * @since 0.1.0
 */
public record Finding(String severity, String subject, String what, String meaning, String action) {

	/** Something will not count. */
	public static final String PROBLEM = "problem";

	/** Something counts less than it could. */
	public static final String WARNING = "warning";

	/** Worth knowing. */
	public static final String INFO = "info";

	static Finding problem(String subject, String what, String meaning, String action) {
		return new Finding(PROBLEM, subject, what, meaning, action);
	}

	static Finding warning(String subject, String what, String meaning, String action) {
		return new Finding(WARNING, subject, what, meaning, action);
	}

	static Finding info(String subject, String what, String meaning, String action) {
		return new Finding(INFO, subject, what, meaning, action);
	}

}
