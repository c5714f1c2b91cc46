/**
 * End-to-end tests that run the starter in a web application and read it over HTTP.
 */
@NullMarked
package io.github.rdmacounters.e2e;

import org.jspecify.annotations.NullMarked;
