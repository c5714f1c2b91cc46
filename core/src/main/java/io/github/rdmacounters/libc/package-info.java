/**
 * The C library calls of the native code and the owner of a raw file descriptor, shared
 * by the netlink, ethtool and verbs packages. Internal; not part of the API.
 */
@NullMarked
package io.github.rdmacounters.libc;

import org.jspecify.annotations.NullMarked;
