package io.github.rdmacounters.core;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * One or more {@code rdma.*} properties have values that cannot work. Each problem names
 * the property, the value and what is allowed.
 *
 * @since 0.1.0
 */
public class InvalidRdmaConfigurationException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final transient List<Problem> problems;

	/** Create an exception with at least one problem. */
	public InvalidRdmaConfigurationException(List<Problem> problems) {
		super("Invalid RDMA configuration: "
				+ problems.stream().map(Problem::toString).collect(Collectors.joining("; ")));
		this.problems = List.copyOf(problems);
	}

	/**
	 * Create an exception for one property.
	 * @param property the full property name, e.g. {@code rdma.port}
	 * @param value the bad value
	 * @param requirement what is allowed, e.g. {@code must be 1 or more}
	 */
	public InvalidRdmaConfigurationException(String property, @Nullable Object value, String requirement) {
		this(List.of(new Problem(property, value, requirement)));
	}

	public List<Problem> problems() {
		return this.problems;
	}

	/**
	 * A property value that cannot work.
	 *
	 * @param property the full property name
	 * @param value the value as bound, or {@code null} when it is missing
	 * @param requirement what is allowed
	 */
	public record Problem(String property, @Nullable Object value, String requirement) {

		@Override
		public String toString() {
			return this.property + "=" + ((this.value != null) ? this.value : "(not set)") + ": " + this.requirement;
		}

	}

}
