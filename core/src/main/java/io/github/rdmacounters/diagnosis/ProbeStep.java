package io.github.rdmacounters.diagnosis;

import org.jspecify.annotations.Nullable;

/**
 * One step of {@code --probe} on a port.
 *
 * @param step the verb the step calls, e.g. {@code ibv_create_qp}
 * @param outcome {@code ok}, {@code failed}, {@code not-reached} after an earlier step
 * failed, or {@code skipped} (an InfiniBand port, not probed)
 * @param errno the errno of a failure, or {@code null}
 * @param errnoName its name, e.g. {@code EPERM}, or {@code null}
 * @param message the failure's message, or {@code null}
 * @since 0.1.0
 */
public record ProbeStep(String step, String outcome, @Nullable Integer errno, @Nullable String errnoName,
		@Nullable String message) {

	static final String OK = "ok";

	static final String FAILED = "failed";

	static final String NOT_REACHED = "not-reached";

	static final String SKIPPED = "skipped";

	boolean failed() {
		return FAILED.equals(this.outcome);
	}

}
