package io.github.rdmacounters.diagnosis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.github.rdmacounters.core.DeviceAttributes;
import io.github.rdmacounters.core.DeviceId;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaException;
import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.verbs.NativeBackend;
import io.github.rdmacounters.verbs.VerbsDiagnostics;
import io.github.rdmacounters.verbs.VerbsDiagnostics.ContextOps;

/**
 * Asks the verbs backend what it sees: whether libibverbs loads and from which file,
 * whether the kernel has an RDMA stack, the devices listed, and each device opened,
 * queried and closed again (no object is created on it).
 */
final class VerbsCollector {

	/**
	 * rdma-core names the library file {@code libibverbs.so.1.<abi>.<release>.0}: the
	 * version {@code rdma_library(ibverbs ...)} gets in {@code libibverbs/CMakeLists.txt}
	 * ends with {@code PACKAGE_VERSION}.
	 */
	private static final Pattern RELEASE = Pattern.compile("libibverbs\\.so\\.1\\.\\d+\\.(\\d+)\\.\\d+");

	private VerbsCollector() {
	}

	static VerbsReport collect(RdmaBackend backend, HostPaths paths) {
		Map<String, Integer> sizes = VerbsDiagnostics.bindingSizes();
		if (!(backend instanceof NativeBackend nativeBackend)) {
			return listed(backend, backend.name(), null, null, sizes);
		}
		String library = nativeBackend.library();
		RdmaUnavailableException cause = nativeBackend.unavailabilityCause();
		if (cause != null) {
			return new VerbsReport(backend.name(), library, false, null, null, false, cause.getMessage(), List.of(),
					sizes);
		}
		String path = loadedFile(library, paths);
		String release = null;
		if (path != null) {
			Matcher matcher = RELEASE.matcher(Path.of(path).getFileName().toString());
			release = matcher.matches() ? matcher.group(1) : null;
		}
		return listed(backend, library, path, release, sizes);
	}

	private static VerbsReport listed(RdmaBackend backend, String library, @Nullable String path,
			@Nullable String release, Map<String, Integer> sizes) {
		try {
			return new VerbsReport(backend.name(), library, true, path, release, true, null, names(backend), sizes);
		}
		catch (RdmaUnavailableException ex) {
			return new VerbsReport(backend.name(), library, true, path, release,
					ex.reason() != RdmaUnavailableException.Reason.NO_KERNEL_STACK, ex.getMessage(), List.of(), sizes);
		}
		catch (RdmaException ex) {
			return new VerbsReport(backend.name(), library, true, path, release, true, ex.getMessage(), List.of(),
					sizes);
		}
	}

	private static List<String> names(RdmaBackend backend) {
		return backend.devices().stream().map(DeviceId::name).toList();
	}

	// The file the dynamic loader mapped: a path names itself, a bare name is looked up
	// in /proc/self/maps
	private static @Nullable String loadedFile(String library, HostPaths paths) {
		try {
			if (library.indexOf('/') >= 0) {
				return Path.of(library).toRealPath().toString();
			}
			String stem = library.contains(".so") ? library.substring(0, library.indexOf(".so") + 3) : library;
			for (String line : Files.readAllLines(paths.proc().resolve("self/maps"))) {
				int slash = line.indexOf('/');
				if (slash > 0) {
					Path file = Path.of(line.substring(slash).trim());
					Path name = file.getFileName();
					if (name != null && name.toString().startsWith(stem)) {
						return file.toRealPath().toString();
					}
				}
			}
		}
		catch (IOException | InvalidPathException ex) {
			// unknown
		}
		return null;
	}

	static ContextReport context(RdmaBackend backend, String name, VerbsReport verbs) {
		if (!verbs.devices().contains(name)) {
			String why = (verbs.error() != null) ? verbs.error()
					: "ibv_get_device_list does not list it (no uverbs device for it, or another network namespace)";
			return ContextReport.notOpened(false, why);
		}
		try (RdmaDevice device = backend.open(name)) {
			DeviceAttributes attributes = device.queryDevice();
			ContextOps ops = VerbsDiagnostics.contextOps(device);
			return new ContextReport(true, true, null, (ops != null) ? ops.extended() : null,
					(ops != null) ? ops.size() : null, (ops != null) ? ops.missing() : List.of(),
					attributes.managedFlowSteering(), attributes.vendorId(), attributes.vendorPartId());
		}
		catch (RdmaException ex) {
			return ContextReport.notOpened(true, ex.getMessage());
		}
	}

}
