package io.github.rdmacounters.testsupport;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension for tests against the fake libibverbs: resets it before each test and,
 * after each test that passed so far, asserts that the binding made no misuse and left no
 * native object alive.
 *
 * @author rdma-counters
 */
public class FakeVerbsExtension implements BeforeEachCallback, AfterEachCallback {

	@Override
	public void beforeEach(ExtensionContext context) {
		FakeVerbs.get().reset();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		if (context.getExecutionException().isEmpty()) {
			FakeVerbs.get().assertClean();
		}
	}

}
