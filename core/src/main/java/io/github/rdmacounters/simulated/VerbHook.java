package io.github.rdmacounters.simulated;

/**
 * Sees each verb before it runs and each simulated native object as it is allocated and
 * freed. Core's test support provides one through {@link java.util.ServiceLoader} to
 * record calls and inject faults.
 */
interface VerbHook {

	/** May fail the verb by throwing an {@code RdmaOperationException}. */
	void beforeVerb(String verb);

	void allocated(Object object);

	void freed(Object object);

}
