package io.github.rdmacounters.verbs;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import org.jspecify.annotations.Nullable;

/**
 * A prepared call of a provider's {@code read_counters} op through libffi
 * ({@link Native#ffi_prep_cif}, {@link Native#ffi_call}). {@link Function#invokeInt}
 * converts every argument and prepares a call interface each time; here the interface is
 * prepared once per process and the arguments once per handle, so a read is one JNI call
 * without allocation. x86-64 Linux only ({@code FFI_UNIX64}); elsewhere {@link #create}
 * returns {@code null}. Not thread-safe.
 */
final class ReadCountersCall {

	// libffi's ABI and type codes
	private static final int FFI_UNIX64 = 2;

	private static final short FFI_TYPE_UINT32 = 9;

	private static final short FFI_TYPE_SINT32 = 10;

	private static final short FFI_TYPE_POINTER = 14;

	// sizeof(ffi_type): size_t size; unsigned short alignment, type; ffi_type **elements
	private static final int FFI_TYPE_SIZE = 24;

	private static final int ARGS = 4;

	private static final int SLOT = 8;

	private final long function;

	private final long cif;

	private final Memory values;

	private final Memory pointers;

	private final Memory result;

	private ReadCountersCall(long function, long cif, Pointer counters, Pointer buffer) {
		this.function = function;
		this.cif = cif;
		this.values = new Memory(ARGS * SLOT);
		this.values.clear();
		this.values.setPointer(0, counters);
		this.values.setPointer(SLOT, buffer);
		this.pointers = new Memory(ARGS * Native.POINTER_SIZE);
		for (int i = 0; i < ARGS; i++) {
			this.pointers.setPointer((long) i * Native.POINTER_SIZE, this.values.share((long) i * SLOT));
		}
		this.result = new Memory(SLOT);
	}

	// null where this platform is not supported
	static @Nullable ReadCountersCall create(Function readCounters, Pointer counters, Pointer buffer) {
		long cif = CallInterface.CIF;
		if (cif == 0) {
			return null;
		}
		return new ReadCountersCall(Pointer.nativeValue(readCounters), cif, counters, buffer);
	}

	void buffer(Pointer buffer) {
		this.values.setPointer(SLOT, buffer);
	}

	// Returns 0 or an errno value
	int invoke(int count, int flags) {
		this.values.setInt(2 * SLOT, count);
		this.values.setInt(3 * SLOT, flags);
		Native.ffi_call(this.cif, this.function, Pointer.nativeValue(this.result), Pointer.nativeValue(this.pointers));
		return (int) this.result.getLong(0);
	}

	// The call interface of int (void *, void *, uint32_t, uint32_t)
	private static final class CallInterface {

		// Never freed: the cif points to it
		private static final Memory TYPES = new Memory(3 * FFI_TYPE_SIZE + ARGS * Native.POINTER_SIZE);

		// 0 where unsupported
		static final long CIF = prepare();

		private static long prepare() {
			if (!Platform.isLinux() || !Platform.is64Bit() || !"x86-64".equals(Platform.ARCH)) {
				return 0;
			}
			Memory types = TYPES;
			types.clear();
			Pointer pointerType = type(types, 0, Native.POINTER_SIZE, FFI_TYPE_POINTER);
			Pointer uint32Type = type(types, FFI_TYPE_SIZE, Integer.BYTES, FFI_TYPE_UINT32);
			Pointer sint32Type = type(types, 2 * FFI_TYPE_SIZE, Integer.BYTES, FFI_TYPE_SINT32);
			long argTypes = 3 * FFI_TYPE_SIZE;
			Pointer[] arguments = { pointerType, pointerType, uint32Type, uint32Type };
			for (int i = 0; i < ARGS; i++) {
				types.setPointer(argTypes + (long) i * Native.POINTER_SIZE, arguments[i]);
			}
			try {
				return Native.ffi_prep_cif(FFI_UNIX64, ARGS, Pointer.nativeValue(sint32Type),
						Pointer.nativeValue(types) + argTypes);
			}
			catch (Error ex) {
				// JNA reports an ffi_prep_cif failure as an Error; fall back to Function
				return 0;
			}
		}

		private static Pointer type(Memory types, long offset, int size, short type) {
			types.setLong(offset, size);
			types.setShort(offset + 8, (short) size);
			types.setShort(offset + 10, type);
			types.setPointer(offset + 16, null);
			return types.share(offset);
		}

	}

}
