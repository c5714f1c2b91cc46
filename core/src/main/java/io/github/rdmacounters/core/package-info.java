/**
 * Backend-neutral model of an RDMA device, its flows and counters, shared by the native
 * binding, the simulated device and the Spring integration.
 * <p>
 * The words for a device, from the host to the application:
 * <ul>
 * <li>{@link io.github.rdmacounters.core.DeviceId}: a device as
 * {@code ibv_get_device_list} lists it (name, node GUID); nothing is opened.</li>
 * <li>{@link io.github.rdmacounters.core.DeviceIdentity}: what sysfs says the device is
 * (netdevs, PCI address, virtual function); read with the port counters.</li>
 * <li>{@link io.github.rdmacounters.core.DeviceAttributes}: {@code ibv_query_device} of
 * an opened device.</li>
 * <li>{@link io.github.rdmacounters.core.RdmaDevice}: an opened device context
 * ({@code ibv_context}) that creates counters and flows; a backend implements it.</li>
 * <li>{@link io.github.rdmacounters.core.SupervisedDevice}: an {@code RdmaDevice} that
 * reopens itself after a fatal event and recreates its flows.</li>
 * <li>{@link io.github.rdmacounters.core.DeviceDefinition}: the configuration of the
 * counter sets on one device, before anything is opened.</li>
 * <li>{@link io.github.rdmacounters.core.ManagedDevice}: what the application made of a
 * definition: the supervised device (or why it is unavailable), its counter sets and its
 * port counters; the unit health, the endpoint and the meters report on.</li>
 * </ul>
 */
@NullMarked
package io.github.rdmacounters.core;

import org.jspecify.annotations.NullMarked;
