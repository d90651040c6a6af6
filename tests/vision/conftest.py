"""Vision tests run OpenCV on one thread: the machine is shared and the timings stay honest."""

import cv2

cv2.setNumThreads(1)
