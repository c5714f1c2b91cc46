/**
 * Test helpers shared by the test suites: the fake libibverbs and in-memory test doubles.
 */
@NullMarked
package io.github.rdmacounters.testsupport;

import org.jspecify.annotations.NullMarked;
