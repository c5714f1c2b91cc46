package io.github.rdmacounters.verbs;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.DeviceNotFoundException;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.HostPortCountersSource;
import io.github.rdmacounters.core.PortCountersSource;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.core.RdmaUnavailableException.Reason;
import io.github.rdmacounters.sysfs.SysfsHostPortCountersSource;
import io.github.rdmacounters.sysfs.SysfsPortCountersSource;
import io.github.rdmacounters.verbs.IbvHandles.IbvContext;
import io.github.rdmacounters.verbs.IbvHandles.IbvDevice;

/**
 * The {@link RdmaBackend} that calls libibverbs through JNA, loaded on first use. If it
 * cannot be loaded, or the kernel has no RDMA stack, every call fails with a
 * {@link RdmaUnavailableException} that names the cause and what to install.
 *
 * @since 0.1.0
 */
public final class NativeBackend implements RdmaBackend {

	public static final String NAME = "native";

	/** The runtime library, present without the -dev package. */
	public static final String DEFAULT_LIBRARY = "libibverbs.so.1";

	/**
	 * How long closing a device waits for its event thread ({@code rdma-events-<device>})
	 * to finish with the listeners of the event in hand; a thread still in a listener
	 * then makes no further call on the device and ends by itself.
	 */
	public static final Duration EVENT_LISTENERS_WAIT = Duration.ofSeconds(5);

	private final String library;

	private final boolean preparedReads;

	private final Object loadLock = new Object();

	private volatile @Nullable Holder holder;

	/** Create a backend that loads {@value #DEFAULT_LIBRARY}. */
	public NativeBackend() {
		this(DEFAULT_LIBRARY);
	}

	/**
	 * Create a backend that loads the given library.
	 * @param library a library name such as {@value #DEFAULT_LIBRARY} or a path to one
	 */
	public NativeBackend(String library) {
		this(library, true);
	}

	// preparedReads=false forces Function.invokeInt for counter reads
	NativeBackend(String library, boolean preparedReads) {
		this.library = library;
		this.preparedReads = preparedReads;
	}

	@Override
	public String name() {
		return NAME;
	}

	public String library() {
		return this.library;
	}

	/**
	 * Return why the library cannot be loaded, loading it if needed; the kernel is probed
	 * by {@link #devices()}.
	 * @return the cause, or {@code null} if the library loads
	 */
	public @Nullable RdmaUnavailableException unavailabilityCause() {
		return holder().cause;
	}

	@Override
	public List<DeviceId> devices() {
		IbvLibrary lib = lib();
		List<DeviceId> devices = new ArrayList<>();
		Pointer list = deviceList(lib);
		try {
			for (IbvDevice device : entries(list)) {
				devices.add(new DeviceId(deviceName(lib, device), Verbs.be64ToHost(lib.ibv_get_device_guid(device))));
			}
		}
		finally {
			lib.ibv_free_device_list(list);
		}
		return List.copyOf(devices);
	}

	@Override
	public RdmaDevice open(String deviceName) {
		IbvLibrary lib = lib();
		Pointer list = deviceList(lib);
		try {
			List<String> names = new ArrayList<>();
			for (IbvDevice device : entries(list)) {
				String name = deviceName(lib, device);
				if (name.equals(deviceName)) {
					IbvContext context = lib.ibv_open_device(device);
					if (context == null || context.getPointer() == null) {
						int errno = Native.getLastError();
						throw Verbs.failure("ibv_open_device", errno,
								"cannot open " + deviceName + ((errno == Errno.EACCES || errno == Errno.EPERM)
										? "; the user needs read-write access to the uverbs device (group rdma)" : ""));
					}
					return new NativeDevice(lib, deviceName, context, this.preparedReads);
				}
				names.add(name);
			}
			throw new DeviceNotFoundException(deviceName, names);
		}
		finally {
			lib.ibv_free_device_list(list);
		}
	}

	private static String deviceName(IbvLibrary lib, IbvDevice device) {
		String name = lib.ibv_get_device_name(device);
		return (name != null) ? name : "";
	}

	private Pointer deviceList(IbvLibrary lib) {
		IntByReference count = new IntByReference();
		Pointer list = lib.ibv_get_device_list(count);
		if (list == null) {
			int errno = Native.getLastError();
			if (errno == Errno.ENOSYS) {
				throw new RdmaUnavailableException(Reason.NO_KERNEL_STACK, "ibv_get_device_list failed: ENOSYS ("
						+ Errno.ENOSYS + ") " + Errno.message(Errno.ENOSYS)
						+ ": the kernel has no RDMA stack (no /sys/class/infiniband_verbs); load the RDMA kernel "
						+ "modules (ib_uverbs and the NIC's driver, e.g. mlx5_ib) on a host with an RDMA NIC, "
						+ "or configure the simulated backend", null);
			}
			throw Verbs.failure("ibv_get_device_list", errno, null);
		}
		return list;
	}

	private static List<IbvDevice> entries(Pointer list) {
		List<IbvDevice> entries = new ArrayList<>();
		for (int i = 0;; i++) {
			Pointer device = list.getPointer((long) i * Native.POINTER_SIZE);
			if (device == null) {
				return entries;
			}
			entries.add(new IbvDevice(device));
		}
	}

	private IbvLibrary lib() {
		Holder current = holder();
		IbvLibrary library = current.library;
		if (library == null) {
			RdmaUnavailableException cause = current.cause;
			throw (cause != null) ? cause
					: new RdmaUnavailableException(Reason.LIBRARY_NOT_LOADABLE, this.library + " is not loaded", null);
		}
		return library;
	}

	private Holder holder() {
		Holder current = this.holder;
		if (current == null) {
			synchronized (this.loadLock) {
				current = this.holder;
				if (current == null) {
					current = Holder.load(this.library);
					this.holder = current;
				}
			}
		}
		return current;
	}

	@Override
	public PortCountersSource portCounters(String deviceName, Path sysfsRoot, Duration readCacheTtl) {
		return SysfsPortCountersSource.of(deviceName, sysfsRoot, readCacheTtl);
	}

	@Override
	public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl) {
		return SysfsHostPortCountersSource.of(sysfsRoot, deviceFilter, counterFilter, readCacheTtl);
	}

	@Override
	public HostPortCountersSource hostPortCounters(Path sysfsRoot, Predicate<String> deviceFilter,
			Predicate<String> counterFilter, Duration readCacheTtl, Duration readDeadline) {
		return SysfsHostPortCountersSource.of(sysfsRoot, deviceFilter, counterFilter, readCacheTtl, readDeadline);
	}

	@Override
	public String toString() {
		return "NativeBackend[" + this.library + "]";
	}

	/** The loaded library, or why it could not be loaded. */
	private static final class Holder {

		private static final Logger logger = System.getLogger(NativeBackend.class.getName());

		private final @Nullable IbvLibrary library;

		private final @Nullable RdmaUnavailableException cause;

		private Holder(@Nullable IbvLibrary library, @Nullable RdmaUnavailableException cause) {
			this.library = library;
			this.cause = cause;
		}

		static Holder load(String library) {
			if (library.indexOf('/') >= 0) {
				Path file = Path.of(library);
				String problem = ElfCheck.problem(file);
				if (problem != null) {
					logger.log(Level.DEBUG, () -> "Not loading " + file.toAbsolutePath() + ": " + problem);
					return new Holder(null,
							new RdmaUnavailableException(Reason.LIBRARY_NOT_LOADABLE,
									"Cannot load the libibverbs library '" + library + "': " + problem
											+ "; point the native backend at a complete copy of libibverbs.so.1, or "
											+ "reinstall rdma-core's runtime library (Debian/Ubuntu: libibverbs1, "
											+ "RHEL/Fedora: libibverbs)",
									null));
				}
			}
			try {
				IbvLibrary loaded = Native.load(library, IbvLibrary.class);
				NativeLibrary nativeLibrary = ((Library.Handler) Proxy.getInvocationHandler(loaded)).getNativeLibrary();
				List<String> missing = missingVerbs(nativeLibrary);
				if (!missing.isEmpty()) {
					// JNA looks functions up at their first call: a library that is not
					// libibverbs would fail there with an UnsatisfiedLinkError
					return new Holder(null, new NotLibibverbsException(library, missing));
				}
				return new Holder(loaded, null);
			}
			catch (LinkageError | SecurityException ex) {
				return new Holder(null, new RdmaUnavailableException(Reason.LIBRARY_NOT_LOADABLE,
						"Cannot load the libibverbs library '" + library + "' (" + loaderReason(ex)
								+ "); install rdma-core's runtime library (Debian/Ubuntu: libibverbs1, "
								+ "RHEL/Fedora: libibverbs), or point the native backend at the library to load",
						ex));
			}
		}

		// The functions of IbvLibrary the library does not export, by name
		private static List<String> missingVerbs(NativeLibrary library) {
			List<String> missing = new ArrayList<>();
			for (Method method : IbvLibrary.class.getDeclaredMethods()) {
				if (Modifier.isAbstract(method.getModifiers())) {
					try {
						library.getFunction(method.getName());
					}
					catch (UnsatisfiedLinkError ex) {
						missing.add(method.getName());
					}
				}
			}
			missing.sort((a, b) -> "ibv_get_device_list".equals(a) ? -1
					: "ibv_get_device_list".equals(b) ? 1 : a.compareTo(b));
			return missing;
		}

		// The second line of JNA's message; the first names the library, later ones
		// list JNA's search path
		private static String loaderReason(Throwable ex) {
			String message = String.valueOf(ex.getMessage());
			String[] lines = message.split("\\R");
			return ((lines.length > 1) ? lines[1] : lines[0]).trim();
		}

	}

}
