/**
 * Host diagnosis: what will count on this host and why not, from sysfs, the verbs
 * binding, RDMA netlink, ethtool and the process's rights; Spring-free, run by
 * {@link io.github.rdmacounters.diagnosis.DiagnosisCommand}.
 */
@NullMarked
package io.github.rdmacounters.diagnosis;

import org.jspecify.annotations.NullMarked;
