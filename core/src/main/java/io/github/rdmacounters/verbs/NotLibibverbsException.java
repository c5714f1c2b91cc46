package io.github.rdmacounters.verbs;

import java.util.List;

import io.github.rdmacounters.core.RdmaUnavailableException;

/**
 * The library the native backend was pointed at loads, but is not libibverbs: it lacks
 * verbs the binding calls (e.g. {@code libc.so.6}). Found once, when the library is
 * loaded, so that no {@link UnsatisfiedLinkError} escapes a later call.
 *
 * @since 0.1.0
 */
public class NotLibibverbsException extends RdmaUnavailableException {

	private static final long serialVersionUID = 1L;

	private final String library;

	private final List<String> missing;

	/**
	 * Create an exception.
	 * @param library the library as the backend was given it
	 * @param missing the verbs it lacks, at least one
	 */
	public NotLibibverbsException(String library, List<String> missing) {
		super(Reason.LIBRARY_NOT_LOADABLE,
				"The library '" + library + "' loads but is not libibverbs: it has no " + missing.get(0)
						+ ((missing.size() > 1) ? " (nor " + (missing.size() - 1) + " more verbs)" : "")
						+ "; point the native backend at libibverbs.so.1",
				null);
		this.library = library;
		this.missing = List.copyOf(missing);
	}

	/**
	 * Return the library as the backend was given it.
	 * @return the name or path
	 */
	public String library() {
		return this.library;
	}

	/**
	 * Return the verbs the library lacks.
	 * @return their C names
	 */
	public List<String> missing() {
		return this.missing;
	}

}
